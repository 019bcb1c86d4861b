// Look-ups over the operations of the OpenAPI document (generated into operations.gen.ts by the build):
// which scope an operation needs, and which operation a concrete request path is.
import { OPERATIONS, type Operation, type OperationId } from './operations.gen.js';
import { compileTemplate, fitsTemplate, mostSpecific, pathSegments, type PathTemplate } from './path-template.js';

export { OPERATIONS, SCOPES, type Operation, type OperationId, type Scope } from './operations.gen.js';

const BY_ID: ReadonlyMap<string, Operation> = new Map(OPERATIONS.map((op) => [op.operationId, op]));

/** The operation with this operationId; throws for an id the document does not have. */
export function operation<Id extends OperationId>(operationId: Id): Extract<Operation, { operationId: Id }>;
export function operation(operationId: string): Operation;
export function operation(operationId: string): Operation {
  const found = BY_ID.get(operationId);
  if (!found) throw new Error(`Unknown operationId: ${operationId}`);
  return found;
}

/** The full name of the one scope the operation requires (spec: every endpoint requires exactly one scope). */
export function scopeFor<Id extends OperationId>(operationId: Id): Extract<Operation, { operationId: Id }>['scope'];
export function scopeFor(operationId: string): Operation['scope'];
export function scopeFor(operationId: string): Operation['scope'] {
  return operation(operationId).scope;
}

/** What matching needs of an operation: its method and path template. */
export interface OperationTemplate {
  method: string;
  path: string;
}

const COMPILED = new WeakMap<readonly OperationTemplate[], PathTemplate[]>();

function templatesOf(operations: readonly OperationTemplate[]): PathTemplate[] {
  let compiled = COMPILED.get(operations);
  if (!compiled) {
    compiled = operations.map((op) => compileTemplate(op.path));
    COMPILED.set(operations, compiled);
  }
  return compiled;
}

/**
 * The operation a request is for, e.g. ('get', '/v1/devices/HW-1/events?limit=5') → listDeviceEvents.
 * A query string, a fragment and a trailing slash are ignored; when several templates match, the one with
 * the most literal segments wins (a literal beats a parameter). Undefined when nothing matches.
 */
export function matchOperation(method: string, concretePath: string): Operation | undefined {
  return matchOperationIn(OPERATIONS, method, concretePath);
}

/** matchOperation over another list of operations, such as those of a document a server serves. */
export function matchOperationIn<T extends OperationTemplate>(operations: readonly T[], method: string, concretePath: string): T | undefined {
  const wanted = method.toUpperCase();
  // a path typed by a person: its query, fragment and outer slashes are not part of what it names
  const segments = pathSegments(`/${concretePath.replace(/[?#].*$/, '').replace(/^\/+|\/+$/g, '')}`);
  const templates = templatesOf(operations);
  const fitting = operations
    .map((op, i) => ({ op, template: templates[i]! }))
    .filter((c) => c.op.method.toUpperCase() === wanted && fitsTemplate(c.template, segments));
  return mostSpecific(fitting, (c) => c.template)?.op;
}
