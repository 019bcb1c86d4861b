// Routes outside the API document: the token endpoint, the OpenAPI document, and the sandbox-only control
// routes under /_sandbox/ (no bearer token).
import { handleTokenRequest } from '../auth/token-endpoint.js';
import { problem, notFound } from '../http/problems.js';
import { mediaDeviceSeq } from '../seed/telemetry.js';
import { hash32, Prng } from '../seed/prng.js';
import { openApiDocument } from './openapi-document.js';
import type { PublicRoute } from '../app.js';
import type { MediaRecord } from '../store/records.js';

export const publicRoutes: PublicRoute[] = [
  {
    method: 'POST',
    path: '/connect/token',
    handler: async (ctx, app) => {
      const reply = await handleTokenRequest(ctx, { clients: app.clients, tokens: app.tokens, ttlSeconds: app.tokenTtlSeconds });
      // issued tokens are state: they outlive a restart (`fleetctl --sandbox` reuses its cached token)
      if (reply.status === 200) app.changed();
      return reply;
    },
  },
  {
    method: 'GET',
    path: '/openapi/v1.json',
    handler: () => ({ status: 200, json: openApiDocument() }),
  },
  {
    method: 'GET',
    path: '/_sandbox/commands',
    // executed (not replayed) commands, oldest first: proves exactly-once execution
    handler: (_ctx, app) => ({ status: 200, json: app.commands.executed() }),
  },
  {
    method: 'POST',
    path: '/_sandbox/reset',
    handler(_ctx, app) {
      app.reset();
      return { status: 204 };
    },
  },
  {
    method: 'GET',
    path: '/_sandbox/media/{mediaId}',
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
