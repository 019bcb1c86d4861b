// The failing members of a problem document, read in the shapes services send, for the error line.
import { describe, expect, it } from 'vitest';
import { describeMemberErrors, memberErrors } from '../../src/api/problem-members.js';

describe('memberErrors', () => {
  it('an object of member -> messages (ASP.NET Core validation problems)', () => {
    const problem = { title: 'One or more validation errors occurred.', status: 400, errors: { employee_id: ['The employee_id field must be a string.'], Name: ['Too long.', 'Has a tab.'] } };
    expect(memberErrors(problem)).toEqual([
      { member: 'employee_id', message: 'The employee_id field must be a string.' },
      { member: 'Name', message: 'Too long.' },
      { member: 'Name', message: 'Has a tab.' },
    ]);
  });

  it.each([
    ['pointer and reason', { errors: [{ pointer: '/topics/0/delivery/url', reason: 'not an absolute https URL' }] }, '/topics/0/delivery/url', 'not an absolute https URL'],
    ['field and message', { violations: [{ field: 'license_number', message: 'must not be blank' }] }, 'license_number', 'must not be blank'],
    ["RFC 9457's invalid-params", { 'invalid-params': [{ name: 'age', reason: 'must be a positive integer' }] }, 'age', 'must be a positive integer'],
    ['parameter and detail', { invalid_params: [{ parameter: 'limit', detail: 'at most 500' }] }, 'limit', 'at most 500'],
    ['a loc list and msg, under detail', { detail: [{ loc: ['body', 'employee_id'], msg: 'str type expected', type: 'type_error.str' }] }, 'body.employee_id', 'str type expected'],
    ['path and description', { errors: [{ path: 'query.fleet_id', description: 'not a uuid' }] }, 'query.fleet_id', 'not a uuid'],
  ])('a list of objects: %s', (_name, problem, member, message) => {
    expect(memberErrors(problem as Record<string, unknown>)).toEqual([{ member, message }]);
  });

  it('bare messages, and entries it cannot read are passed over', () => {
    expect(memberErrors({ errors: ['name is required', 42, { code: 'x' }, { field: 'a', message: 'b' }] })).toEqual([{ message: 'name is required' }, { member: 'a', message: 'b' }]);
  });

  it('none: no such member, or one of another shape', () => {
    expect(memberErrors(undefined)).toEqual([]);
    expect(memberErrors({ detail: 'Nothing to name.', code: 'x' })).toEqual([]);
    expect(memberErrors({ errors: 3, violations: null })).toEqual([]);
  });
});

describe('describeMemberErrors', () => {
  it('each member and message; a long list cut with "and N more"; long names and messages cut', () => {
    const errors = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`field_${i}`, [`bad ${i}`]]));
    expect(describeMemberErrors({ errors })).toBe('field_0: bad 0; field_1: bad 1; field_2: bad 2; field_3: bad 3; and 3 more');
    const long = describeMemberErrors({ errors: [{ field: 'f'.repeat(500), message: 'm'.repeat(5000) }] })!;
    expect(long.length).toBeLessThan(200);
    expect(long).toMatch(/^f+… \(500 characters\): m+… \(5000 characters\)$/);
  });
});
