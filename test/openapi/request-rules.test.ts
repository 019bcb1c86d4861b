import { describe, expect, it } from 'vitest';
import { composeDocument, type OpenApiDoc } from '../../src/openapi/document-shapes.js';
import { bodyIssue, bodyMayCarry, bodyMemberNames, bodyRulesOf, memberValueCheck, parameterIssue, requiredBodyMembers, typedMemberValue } from '../../src/openapi/request-rules.js';
import { payloadMembers } from '../../src/openapi/payload-members.js';
import { EVENT_TYPES } from '../../src/openapi/webhook-events.gen.js';

/** A driver command written as a generator writes one: an allOf of a referenced base and its own members, a nullable string as anyOf. */
const generated = (): Promise<OpenApiDoc> =>
  composeDocument({
    openapi: '3.1.0',
    paths: {
      '/v1/drivers': {
        post: {
          requestBody: { content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', required: ['givenName'], properties: { givenName: { type: 'string' } } }] } } } },
        },
      },
      '/v1/things': { get: { parameters: [{ name: 'ids', in: 'query', schema: { type: 'array', items: { type: 'string', format: 'uuid' } } }] } },
    },
    components: {
      schemas: {
        Base: {
          type: 'object',
          required: ['id', 'badge'],
          properties: { id: { type: 'string', readOnly: true }, badge: { anyOf: [{ type: 'string', maxLength: 6 }, { type: 'null' }] }, level: { type: 'integer' } },
        },
      },
    },
  } as OpenApiDoc);

describe('request rules: what the document in use says of a request body, composed', () => {
  it('reads the members of an allOf body and what it requires, never a readOnly member', async () => {
    const rules = bodyRulesOf(await generated(), 'POST', '/v1/drivers');
    expect(bodyMemberNames(rules).sort()).toEqual(['badge', 'givenName', 'id', 'level']);
    expect(requiredBodyMembers(rules).sort()).toEqual(['badge', 'givenName']);
    expect(bodyMayCarry(rules, 'level')).toBe(true);
    expect(bodyMayCarry(rules, 'organization_id')).toBe(false);
    expect(bodyMayCarry(rules, 'toString')).toBe(false);
  });

  it('types text by the composed member: a nullable string (anyOf with null) keeps digits as text and takes "" as null', async () => {
    const rules = bodyRulesOf(await generated(), 'POST', '/v1/drivers');
    expect(typedMemberValue('1815', rules, 'badge')).toBe('1815');
    expect(typedMemberValue('', rules, 'badge')).toBeNull();
    expect(typedMemberValue('3', rules, 'level')).toBe(3);
    expect(typedMemberValue('3', rules, 'undeclared')).toBe(3);
  });

  it('checks a body and a member by the composed schema', async () => {
    const rules = bodyRulesOf(await generated(), 'POST', '/v1/drivers');
    expect(await bodyIssue(rules, { givenName: 'Ada', badge: null })).toBeNull();
    expect(await bodyIssue(rules, { givenName: 'Ada', badge: 'much too long' })).toMatchObject({ member: 'badge' });
    const check = await memberValueCheck(rules, 'level');
    expect(check(2)).toBeNull();
    expect(check('two')).not.toBeNull();
    expect((await memberValueCheck(rules, 'undeclared'))('anything')).toBeNull();
  });

  it('lets any body through where the document declares none', async () => {
    const rules = bodyRulesOf(await generated(), 'PUT', '/v1/nowhere');
    expect(rules.schema).toBeUndefined();
    expect(bodyMayCarry(rules, 'anything')).toBe(true);
    expect(await bodyIssue(rules, { anything: 1 })).toBeNull();
  });

  it('checks a declared parameter; an undeclared one is the service\'s to judge', async () => {
    const doc = await generated();
    expect(await parameterIssue(doc, 'GET', '/v1/things', 'ids', ['3f2b8c1e-0000-4000-8000-000000000000'])).toBeNull();
    expect(await parameterIssue(doc, 'GET', '/v1/things', 'ids', ['x'])).toMatchObject({ member: '[0]' });
    expect(await parameterIssue(doc, 'GET', '/v1/things', 'other', 'x')).toBeUndefined();
  });
});

describe('payloadMembers: what the bundled document names and requires of each webhook payload', () => {
  it.each(EVENT_TYPES)('%s: its required members are among those it names', async (type) => {
    const { required, named } = await payloadMembers(type);
    expect(named.length).toBeGreaterThan(0);
    expect(required.length).toBeGreaterThan(0);
    expect(required.filter((name) => !named.includes(name))).toEqual([]);
    expect(named).toContain('hardwareId');
  });
});
