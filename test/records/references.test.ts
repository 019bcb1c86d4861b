// The record another record names (the organization of a fleet), whatever the service calls the member.
import { describe, expect, it } from 'vitest';
import { records } from '../../src/records/resources.js';

const ORG = '0aa6a1c2-de0e-40a9-adff-8a4f5a043fc9';

describe('records.fleet.organizationOf', () => {
  it.each([
    ['organization_id', { id: 'f1', organization_id: ORG }],
    ['organizationId', { id: 'f1', organizationId: ORG }],
    ['organization: {id}', { id: 'f1', organization: { id: ORG, name: 'Acme' } }],
    ['org: {ref} (the second service double)', { id: 'f1', org: { ref: 'o-1', region: 'eu' } }],
    ['org_ref', { id: 'f1', org_ref: 'o-1' }],
  ])('%s', (_name, fleet) => {
    expect(records.fleet.organizationOf(fleet)).toBe(JSON.stringify(fleet).includes(ORG) ? ORG : 'o-1');
  });

  it.each([
    ['no member names one', { id: 'f1', name: 'North' }],
    ['two members disagree: ask rather than guess', { id: 'f1', organization_id: ORG, org: { id: 'other' } }],
    ['an empty one', { id: 'f1', organization_id: '' }],
    ['a member that only contains the word', { id: 'f1', parent_organization_id: ORG }],
  ])('undefined when %s', (_name, fleet) => {
    expect(records.fleet.organizationOf(fleet)).toBeUndefined();
  });
});
