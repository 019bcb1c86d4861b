// The modules generated from the documents beside the API document: what they read off the documents, and the
// rules that make a broken document fail the build instead of generating something wrong.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import api from '../../src/openapi/v1.json' with { type: 'json' };
import localFiles from '../../src/openapi/local-files.json' with { type: 'json' };
import control from '../../src/sandbox/common/control-openapi.json' with { type: 'json' };
import { CONTROL_OPERATIONS } from '../../src/openapi/control.gen.js';

type Doc = Record<string, any>;
interface Generator {
  webhookEvents(api: Doc): { events: { type: string; topic: string; envelope: string; data: string }[]; topics: string[] };
  localFilesAsOpenApi(localFiles: Doc, api: Doc): { components: { schemas: Record<string, Doc> } };
}
const generator: Generator = await import(pathToFileURL(path.resolve('src/build/gen-documents.mjs')).href);
const copy = (): Doc => structuredClone(api) as Doc;

describe('webhook events read off v1.json', () => {
  it('one per webhook, in the order of CloudEvent.type, with its x-topic, envelope and payload schema', () => {
    const { events, topics } = generator.webhookEvents(api);
    expect(events.map((event) => event.type)).toEqual(api.components.schemas.CloudEvent.properties.type.enum);
    expect(topics).toEqual(api.components.schemas.WebhookTopicType.enum);
    for (const event of events) {
      const post = (api.webhooks as Doc)[event.type].post;
      expect(event.topic).toBe(post['x-topic']);
      expect(post.requestBody.content['application/cloudevents+json'].schema.$ref).toBe(`#/components/schemas/${event.envelope}`);
      expect(JSON.stringify((api.components.schemas as Doc)[event.envelope])).toContain(`"#/components/schemas/${event.data}"`);
    }
  });

  it('refuses a webhook without a known x-topic', () => {
    const doc = copy();
    doc.webhooks['media.ready'].post['x-topic'] = 'pictures';
    expect(() => generator.webhookEvents(doc)).toThrow('webhooks.media.ready: x-topic must be one of WebhookTopicType');
  });

  it('refuses a webhook whose name is not a CloudEvent type, and a type without a webhook', () => {
    const renamed = copy();
    renamed.webhooks['gps.live'] = renamed.webhooks['live.gps'];
    delete renamed.webhooks['live.gps'];
    expect(() => generator.webhookEvents(renamed)).toThrow('webhooks.gps.live: not a type of CloudEvent.type');
    const missing = copy();
    delete missing.webhooks['journey.closed'];
    expect(() => generator.webhookEvents(missing)).toThrow(/^webhooks: .* is not CloudEvent.type's/);
  });
});

describe('local-files.json as an OpenAPI document', () => {
  const { schemas } = generator.localFilesAsOpenApi(localFiles, api).components;

  it('has every $def, its references turned into component references', () => {
    for (const name of Object.keys(localFiles.$defs)) expect(schemas).toHaveProperty(name);
    expect(schemas.ConfigFile!.properties.profiles.additionalProperties).toEqual({ $ref: '#/components/schemas/Profile' });
    expect(JSON.stringify(schemas)).not.toContain('#/$defs/');
  });

  it('inlines what it borrows from v1.json, and takes along the schemas that refers to', () => {
    expect(schemas.CloudEventCore!.properties.id).toEqual(api.components.schemas.CloudEvent.properties.id);
    expect(JSON.stringify(schemas)).not.toContain('v1.json#');
    const referred = [...JSON.stringify(schemas).matchAll(/#\/components\/schemas\/(\w+)/g)].map((match) => match[1]!);
    for (const name of referred) expect(schemas).toHaveProperty(name);
  });

  it('refuses a $def with the name of a v1.json schema it borrows', () => {
    const clash = structuredClone(localFiles) as Doc;
    const borrowed = Object.keys(generator.localFilesAsOpenApi(localFiles, api).components.schemas).find((name) => !(name in localFiles.$defs))!;
    clash.$defs[borrowed] = { type: 'string' };
    expect(() => generator.localFilesAsOpenApi(clash, api)).toThrow(`$defs/${borrowed} has the name of the v1.json schema it borrows from`);
  });
});

describe('CONTROL_OPERATIONS', () => {
  it('is the method and path of every operation of the control document', () => {
    const expected = Object.entries(control.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([template, item]) =>
      Object.entries(item).map(([method, op]) => [op.operationId, { method: method.toUpperCase(), path: template }]),
    );
    expect(Object.entries(CONTROL_OPERATIONS).sort()).toEqual(expected.sort());
  });
});
