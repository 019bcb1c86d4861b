import { describe, expect, it } from 'vitest';
import { checkBody, checkParameters, fieldTexts, typedMemberValue } from '../../../src/commands/shared/request-checks.js';
import { fakeDeps } from '../fake-deps.js';

describe('typedMemberValue: text typed for a member, as the document makes it', () => {
  it.each([
    ['42', { type: 'integer' }, 42],
    ['42', { type: 'string' }, '42'],
    ['42', undefined, 42],
    ['true', { type: ['string', 'null'] }, 'true'],
    ['null', { type: ['string', 'null'] }, null],
    ['', { type: ['string', 'null'] }, null],
    ['', { type: 'string' }, ''],
    ['["a","b"]', { type: 'array' }, ['a', 'b']],
    ['{"x":1}', {}, { x: 1 }],
    ['Ada', { type: 'integer' }, 'Ada'],
  ])('%j for %j is %j', (text, member, want) => {
    const rules = { doc: { paths: {} }, schema: { type: 'object', properties: member === undefined ? {} : { m: member } } };
    expect(typedMemberValue(text, rules, 'm')).toEqual(want);
  });

  it('--field takes name=value; the value may hold =', () => {
    expect(fieldTexts(['a=b=c', 'n='])).toEqual([['a', 'b=c'], ['n', '']]);
    expect(() => fieldTexts(['=x'])).toThrow('--field takes name=value, got "=x"');
  });
});

describe('checkBody: where the faulty member came from, and what the document says', () => {
  const doc = { paths: {} };
  const schema = { type: 'object', properties: { name: { type: 'string', maxLength: 3 }, address: { type: 'object', properties: { city: { type: 'string' } } } }, additionalProperties: false };

  it('names the flag, --field or file member, and a member inside one', async () => {
    await expect(checkBody({ doc, schema }, { name: 'Augusta' }, { name: '--name' })).rejects.toMatchObject({ message: '--name: must have at most 3 characters', exitCode: 2 });
    await expect(checkBody({ doc, schema }, { address: { city: 7 } }, { address: '"address" in stdin' })).rejects.toThrow('"address" in stdin (address.city): must be a string');
    await expect(checkBody({ doc, schema }, { nick: 'x' }, { nick: '--field nick' })).rejects.toMatchObject({
      message: '--field nick: is not a known member',
      hint: "the service's document names: name, address",
    });
  });

  it('no schema in the document: nothing is refused', async () => {
    await expect(checkBody({ doc }, { anything: 1 }, {})).resolves.toBeUndefined();
  });
});

describe('checkParameters', () => {
  const servedDocument = { paths: { '/v1/things': { get: { parameters: [{ name: 'ids', in: 'query', schema: { type: 'array', items: { type: 'string', format: 'uuid' } } }] } } } };

  it('shows the item of a list at fault; undeclared parameters are the service\'s to judge', async () => {
    const { deps } = fakeDeps({ servedDocument });
    await expect(checkParameters(deps, 'GET', '/v1/things', { ids: { value: ['3f2b8c1e-0000-4000-8000-000000000000', 'x'], flag: '--id' } })).rejects.toThrow('--id: must be a valid uuid, got "x"');
    await expect(checkParameters(deps, 'GET', '/v1/things', { other: { value: 'x', flag: '--other' }, ids: undefined })).resolves.toBeUndefined();
  });
});
