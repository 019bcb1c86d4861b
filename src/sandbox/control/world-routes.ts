// Control routes of the world: readiness, this document, scenarios, reset, the executed commands and the
// signed media downloads.
import { invalidBody, notFound, problem } from '../common/problems.js';
import { mediaDeviceSeq } from '../seed/telemetry.js';
import { hash32, Prng } from '../common/prng.js';
import { controlDocument } from '../common/control-document.js';
import { ScenarioError, type Scenario } from '../scenario/scenario.js';
import { organizationView } from '../routes/views.js';
import type { ControlRoute } from '../app.js';
import type { MediaRecord } from '../common/records.js';

export const worldRoutes: ControlRoute[] = [
  {
    method: 'GET',
    path: '/_sandbox/health',
    operationId: 'getHealth',
    handler: (_ctx, app) => ({
      status: 200,
      headers: { 'cache-control': 'no-store' },
      json: {
        status: 'ok',
        seed: app.seed,
        devices: app.world.devices.size,
        uptime_seconds: Math.round((app.now().getTime() - app.startedAt.getTime()) / 100) / 10,
        started_at: app.startedAt.toISOString(),
        scenario: app.scenario ? (app.scenario.name ?? '(unnamed)') : null,
        telemetry_rate: app.telemetryRate,
        events_reported: app.world.telemetry.live.eventsAdded,
      },
    }),
  },
  {
    method: 'GET',
    path: '/_sandbox/openapi.json',
    operationId: 'getControlDocument',
    handler: () => ({ status: 200, json: controlDocument() }),
  },
  {
    method: 'POST',
    path: '/_sandbox/scenario',
    operationId: 'loadScenario',
    async handler(ctx, app) {
      try {
        // the body fits the Scenario schema (checked before any control route runs)
        app.loadScenario((await ctx.jsonBody()) as Scenario);
      } catch (err) {
        if (err instanceof ScenarioError) throw invalidBody(err.issue.member || 'body', err.issue.reason);
        throw err;
      }
      return {
        status: 200,
        json: {
          scenario: app.scenario?.name ?? null,
          seed: app.seed,
          devices: app.world.devices.size,
          organizations: app.world.refs.organizationList.map(organizationView),
          clients: app.clients.map(({ client_id, client_secret, scopes, organization_id }) => ({ client_id, client_secret, scopes, organization_id })),
        },
      };
    },
  },
  {
    method: 'POST',
    path: '/_sandbox/reset',
    operationId: 'resetSandbox',
    handler(_ctx, app) {
      app.reset();
      return { status: 204 };
    },
  },
  {
    method: 'GET',
    path: '/_sandbox/commands',
    operationId: 'listExecutedCommands',
    // executed (not replayed) commands, oldest first: proves exactly-once execution
    handler: (_ctx, app) => ({ status: 200, json: app.commands.executed() }),
  },
  {
    method: 'GET',
    path: '/_sandbox/media/{mediaId}',
    operationId: 'downloadMedia',
    handler(ctx, app) {
      // a signed link is the only credential here; a bearer token is refused rather than ignored
      if (ctx.req.headers.authorization !== undefined) {
        throw problem(400, 'media.authorization_not_accepted', 'Signed download links take no Authorization header; send the request without it.');
      }
      const id = ctx.params.mediaId!;
      const refused = app.media.check(id, ctx.query.get('expires'), ctx.query.get('signature'));
      if (refused) throw problem(403, refused.includes('expired') ? 'media.link_expired' : 'media.link_invalid', refused);
      const seq = mediaDeviceSeq(id);
      const device = seq === null || seq >= app.world.devices.size ? undefined : app.world.devices.at(seq);
      const item = device ? app.world.telemetry.get(device).media.find((m) => m.id === id) : undefined;
      if (!item) throw notFound(`Media ${id}`);
      return {
        status: 200,
        headers: {
          'content-type': item.mime_type,
          'content-disposition': `attachment; filename="${item.file_name}"`,
          'cache-control': 'private, no-store',
        },
        body: mediaBytes(item),
      };
    },
  },
];

/** Deterministic stand-in content of the item's size, starting with its format's magic bytes. */
function mediaBytes(item: MediaRecord): Buffer {
  const bytes = Buffer.alloc(item.size_bytes);
  const rng = new Prng(hash32(item.id));
  for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE(rng.nextUint32(), Math.min(i, bytes.length - 4));
  const magic = item.mime_type === 'image/jpeg'
    ? Buffer.from([0xff, 0xd8, 0xff, 0xe0])
    : Buffer.from([0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32]);
  magic.copy(bytes, 0);
  if (item.mime_type === 'image/jpeg') bytes.writeUInt16BE(0xffd9, bytes.length - 2);
  return bytes;
}
