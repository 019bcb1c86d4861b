// The OpenAPI document and the CLI agree: every operation is reachable from a named command. That every
// operation the code calls exists in the document is the compiler's to check (test/api/typed-calls.test.ts).
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main.js';
import { createDeps } from '../../src/factory.js';
import { IOStreams } from '../../src/io/streams.js';
import { operationIdsOf } from '../../src/commands/shared/help.js';
import { OPERATIONS } from '../../src/openapi/operations.js';

function declared(command: Command, where: string, out: Map<string, string[]>): Map<string, string[]> {
  for (const id of operationIdsOf(command)) out.set(id, [...(out.get(id) ?? []), where]);
  for (const sub of command.commands) declared(sub, `${where} ${sub.name()}`, out);
  return out;
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
});
