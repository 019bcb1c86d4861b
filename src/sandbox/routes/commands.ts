// Device commands: reboot and wake-up (spec: Devices rules 1-3). Each executed command is logged for
// GET /_sandbox/commands; a replayed one is answered from its idempotency record and not executed again.
import { createHash, randomUUID } from 'node:crypto';
import { problem, invalidBody } from '../common/problems.js';
import { CommandStore } from '../store/commands.js';
import { deviceByHardwareId } from './lookup.js';
import type { ApiContext } from '../common/context.js';
import type { Reply } from '../common/reply.js';
import type { ApiRoute, SandboxApp } from '../app.js';
import type { Capability } from '../common/records.js';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

export const commandRoutes: ApiRoute[] = [
  {
    method: 'POST',
    path: '/v1/devices/{hardwareId}/commands/reboot',
    operationId: 'rebootDevice',
    handler: (ctx, app) => runCommand(ctx, app, 'reboot'),
  },
  {
    method: 'POST',
    path: '/v1/devices/{hardwareId}/commands/wake-up',
    operationId: 'wakeUpDevice',
    handler: (ctx, app) => runCommand(ctx, app, 'wake_up'),
  },
];

function idempotencyKey(ctx: ApiContext): string {
  const raw = ctx.req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (key === undefined || key.trim() === '') {
    throw problem(400, 'idempotency_key.missing', 'The Idempotency-Key header is required for device commands.');
  }
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw problem(400, 'idempotency_key.too_long', `The Idempotency-Key header is ${key.length} characters long; at most ${MAX_IDEMPOTENCY_KEY_LENGTH} are allowed.`);
  }
  return key;
}

/** JSON with sorted keys, so {"a":1,"b":2} and {"b":2,"a":1} are the same body. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

async function runCommand(ctx: ApiContext, app: SandboxApp, command: Capability): Promise<Reply> {
  const key = idempotencyKey(ctx);
  const device = deviceByHardwareId(ctx, app);
  const body = await ctx.jsonBody();
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw invalidBody('body', 'must be a JSON object');
  }
  // an empty body and {} are the same request
  const bodyHash = createHash('sha256').update(canonicalJson(body ?? {})).digest('hex');
  const scopeKey = CommandStore.scopeKey(ctx.auth.clientId, ctx.method, ctx.url.pathname, key);
  const previous = app.commands.find(scopeKey);
  if (previous) {
    if (previous.body_hash !== bodyHash) {
      throw problem(422, 'idempotency.conflict', 'This Idempotency-Key was already used with a different request body.');
    }
    return { status: previous.status, headers: { 'idempotent-replayed': 'true' }, json: previous.response };
  }
  if (!device.capabilities.includes(command)) {
    throw problem(422, 'device.capability_missing', `Device ${device.hardware_id} cannot perform ${command}.`, { capability: command });
  }
  const at = app.now().toISOString();
  const response = {
    id: randomUUID(),
    hardware_id: device.hardware_id,
    command,
    status: 'accepted',
    idempotency_key: key,
    accepted_at: at,
  };
  app.commands.record(
    scopeKey,
    { body_hash: bodyHash, status: 202, response, created_at: at },
    { hardware_id: device.hardware_id, command, idempotency_key: key, executed_at: at },
  );
  app.returns.accepted(device, command, Date.parse(at));
  return { status: 202, json: response };
}
