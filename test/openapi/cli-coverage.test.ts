// The OpenAPI document and the CLI agree: every operation is reachable from a named command, and every
// operation the code calls exists in the document.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main.js';
import { createDeps } from '../../src/factory.js';
import { IOStreams } from '../../src/io/streams.js';
import { operationIdsOf } from '../../src/commands/shared/help.js';
import { OPERATIONS } from '../../src/openapi/operations.js';
import { ROOT } from '../e2e/harness.js';

function declared(command: Command, where: string, out: Map<string, string[]>): Map<string, string[]> {
  for (const id of operationIdsOf(command)) out.set(id, [...(out.get(id) ?? []), where]);
  for (const sub of command.commands) declared(sub, `${where} ${sub.name()}`, out);
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') && !full.endsWith('.gen.ts') ? [full] : [];
  });
}

const program = await buildProgram(createDeps({ io: IOStreams.forTest(), env: {} }, () => ({})));
const byOperation = declared(program, 'fleetctl', new Map());
const documented = new Set<string>(OPERATIONS.map((op) => op.operationId));

describe('CLI coverage of the OpenAPI document', () => {
  it.each(OPERATIONS.map((op) => [op.operationId, `${op.method} ${op.path}`]))('%s (%s) has a named command', (operationId) => {
    expect(byOperation.get(operationId), `no command declares ${operationId}`).toBeDefined();
  });

  it('every operation a command declares exists in the document', () => {
    const unknown = [...byOperation.keys()].filter((id) => !documented.has(id));
    expect(unknown).toEqual([]);
  });

  it('every operation the CLI code calls exists in the document', () => {
    const called = new Set<string>();
    const files = [...sourceFiles(path.join(ROOT, 'src/commands')), ...sourceFiles(path.join(ROOT, 'src/api'))];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\.(?:call|list)(?:<[^>]*>)?\(\s*'([A-Za-z]+)'/g)) called.add(match[1]!);
    }
    expect(called.size).toBeGreaterThan(10);
    expect([...called].filter((id) => !documented.has(id))).toEqual([]);
  });
});
