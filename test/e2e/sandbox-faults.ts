// Targeted fault rules of a sandbox (/_sandbox/faults): a test says which request fails and how, and waits for
// the sandbox to have answered so, rather than for a random fault.
import { expect } from 'vitest';
import type { SandboxHarness } from './harness.js';

export interface FaultRule {
  match: { operation_id: string; hardware_id?: string };
  respond: { status?: number; drop?: true; delay_ms?: number };
  times: number;
}

/** Adds targeted fault rules, tried in the order given; the ids they got. */
export async function addFaults(h: SandboxHarness, rules: FaultRule[]): Promise<string[]> {
  const ids: string[] = [];
  for (const rule of rules) {
    const res = await fetch(`${h.sandbox.baseUrl}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) });
    expect(res.status, await res.clone().text()).toBe(201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  return ids;
}

/** True once every rule has answered as many requests as it was given. */
export async function faultsUsedUp(h: SandboxHarness): Promise<boolean> {
  const rules = (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/faults`)).json()) as { hits: number; times: number | null }[];
  return rules.every((r) => r.hits === r.times);
}

/**
 * The first page of a list is answered as usual (a rule that waits 0 ms, used up by it), the second with 503, or
 * as `respond` says (its connection dropped: no answer at all).
 */
export function failSecondPage(h: SandboxHarness, operationId: string, respond: FaultRule['respond'] = { status: 503 }): Promise<string[]> {
  return addFaults(h, [
    { match: { operation_id: operationId }, respond: { delay_ms: 0 }, times: 1 },
    { match: { operation_id: operationId }, respond, times: 1 },
  ]);
}
