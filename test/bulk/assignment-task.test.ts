// A file row naming its device by hardware id: the lookup follows has_more to the device (an empty first page
// that says has_more is not "not found"), and a second device with that hardware id on a later page is seen.
import { describe, expect, it } from 'vitest';
import { assignmentAttempt } from '../../src/bulk/assignment-task.js';
import { fakeDeps } from '../commands/fake-deps.js';

const DEVICE = '44444444-4444-4444-8444-444444444444';
const OTHER = '66666666-6666-4666-8666-666666666666';
const VEHICLE = '55555555-5555-4555-8555-555555555555';
const device = { id: DEVICE, hardware_id: 'HW-7', vehicle_id: null };
const lookup = (query: Record<string, string>, data: unknown[], next: string | null) => ({
  method: 'GET',
  path: `/v1/devices?${new URLSearchParams({ hardware_id: 'HW-7', ...query }).toString()}`,
  body: { data, next_cursor: next, has_more: next !== null },
});
const opts = { dryRun: false, signal: new AbortController().signal, vehicleMember: 'vehicle_id' };

describe('assignmentAttempt: a row by hardware id', () => {
  it('an empty first page with has_more true is not the end: the device on the next page is assigned', async () => {
    const f = fakeDeps({
      answers: [
        lookup({ limit: '2' }, [], 'c1'),
        lookup({ cursor: 'c1', limit: '2' }, [device], null),
        { method: 'PUT', path: `/v1/devices/${DEVICE}/assignment`, body: { ...device, vehicle_id: VEHICLE } },
      ],
    });
    const outcome = await assignmentAttempt(await f.deps.api(), { device: 'HW-7', vehicle: VEHICLE }, 'assign', opts);
    expect(outcome.result).toMatchObject({ device_id: DEVICE, status: 'assigned' });
    f.assertAllAnswered();
  });

  it('a second device on a later page makes the row ambiguous, and nothing is sent', async () => {
    const f = fakeDeps({ answers: [lookup({ limit: '2' }, [device], 'c1'), lookup({ cursor: 'c1', limit: '1' }, [{ ...device, id: OTHER }], null)] });
    const outcome = await assignmentAttempt(await f.deps.api(), { device: 'HW-7', vehicle: VEHICLE }, 'assign', opts);
    expect(outcome.result).toMatchObject({ status: 'failed', code: 'device.ambiguous' });
    expect(f.sent.map((r) => r.method)).toEqual(['GET', 'GET']);
  });
});
