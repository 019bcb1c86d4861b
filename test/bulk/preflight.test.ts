import { describe, expect, it } from 'vitest';
import { checkReportTimeField } from '../../src/bulk/preflight.js';
import { bundledDocument, type ServedDocument } from '../../src/api/served-document.js';
import { ApiError } from '../../src/errors.js';

const served = async (source: ServedDocument['source']): Promise<ServedDocument> => ({ document: await bundledDocument(), source });
const never = async () => {
  throw new Error('the document says: no device is read');
};

describe('--report-time-field, checked before anything is sent', () => {
  it('refused when the service\'s document describes the last-reported state without it; taken when it has it', async () => {
    await expect(checkReportTimeField(await served('served'), 'observed_at', never)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^--report-time-field "observed_at": the service's API document describes the last-reported state without it \(its members: .*reported_at/),
    });
    await expect(checkReportTimeField(await served('served'), 'reported_at', never)).resolves.toBeUndefined();
  });

  it('where no document says (only the bundled one), the first device\'s last-reported state decides', async () => {
    const record = async () => ({ observed_at: '2026-11-27T10:00:00Z', unit: { seen: null } });
    await expect(checkReportTimeField(await served('bundled'), 'observed_at', record)).resolves.toBeUndefined();
    // a member present but null: a device not back yet, not a wrong name
    await expect(checkReportTimeField(await served('bundled'), 'unit.seen', record)).resolves.toBeUndefined();
    await expect(checkReportTimeField(await served('bundled'), 'reported_at', record)).rejects.toMatchObject({
      exitCode: 2,
      message: '--report-time-field "reported_at": the last-reported state of the first device has no such member',
    });
  });

  it('a first device that never reported (404) tells nothing: the field is taken; other failures are not hidden', async () => {
    const notFound = async () => Promise.reject(new ApiError({ status: 404 }));
    await expect(checkReportTimeField(await served('bundled'), 'anything', notFound)).resolves.toBeUndefined();
    const down = new ApiError({ status: 503 });
    await expect(checkReportTimeField(await served('bundled'), 'anything', async () => Promise.reject(down))).rejects.toBe(down);
  });
});
