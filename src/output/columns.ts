// What each view shows, declared once: the service's records (their preferences are the record boundary's,
// records/views.ts) and the rows fleetctl makes itself (results of commands, the sandbox's logs), whose identifier
// and task columns are named as fleetctl names them.
import type { OperationId } from '../openapi/operation-types.js';
import { RECORD_VIEWS, type ResourceView } from '../records/views.js';

export type { ResourceView, DeclaredFields, DeclaredTimes } from '../records/views.js';
export { bundledDeclaredFields } from '../records/views.js';

/** A view of rows fleetctl makes itself (no operation): the same columns for people and scripts. */
function rows(...columns: string[]): ResourceView {
  return { script: columns, person: columns };
}

/** Columns of rows fleetctl makes, named as it names them: the identifier first, then what the command is for. */
function parts(identifier: string, ...task: string[]): Pick<ResourceView, 'identifier' | 'task'> {
  return { identifier: { field: identifier }, task: task.map((field) => ({ field })) };
}

/** A bulk run's keys are the run's prefix and each hardware id: said once, the row keeps its room. */
const RUN_KEYS = { prefixed: { idempotency_key: 'keys' } };

export const VIEWS = {
  ...RECORD_VIEWS,
  webhookChange: rows('op', 'type', 'before', 'after'),
  deviceCommandResult: { ...rows('hardware_id', 'status', 'http_status', 'code', 'idempotency_key'), ...parts('hardware_id', 'status', 'code'), ...RUN_KEYS },
  /** With --wait: whether each device reported again, and after how long. */
  deviceCommandWaitResult: {
    ...rows('hardware_id', 'status', 'wait', 'back_after_s', 'http_status', 'code', 'idempotency_key'),
    ...parts('hardware_id', 'status', 'code', 'back_after_s'),
    ...RUN_KEYS,
  },
  webhookEmitted: { ...rows('id', 'type', 'hardware_id', 'organization_id', 'destinations'), ...parts('id', 'type', 'hardware_id') },
  sandboxRequest: {
    ...rows('id', 'at', 'method', 'path', 'operation_id', 'client_id', 'status', 'outcome', 'duration_ms', 'fault'),
    ...parts('id', 'method', 'path', 'status', 'outcome', 'fault'),
  },
  /** fleetctl history: one line of the audit ledger, its targets counted by outcome. */
  ledgerEntry: { ...rows('run_id', 'time', 'action', 'outcomes'), ...parts('run_id', 'time', 'action', 'outcomes') },
  sandboxFault: { ...rows('id', 'match', 'respond', 'probability', 'times', 'hits'), ...parts('id', 'match', 'respond') },
} as const satisfies Record<string, ResourceView>;

export type ViewName = keyof typeof VIEWS;

export function viewOf(name: ViewName): ResourceView {
  return VIEWS[name];
}

/** A view of a single operation's answer (a get, a create): every field the record carries is shown. */
export function operationView(operation: OperationId): ResourceView {
  return { operation, script: [], person: [] };
}

