// A hardware id typed in the wrong case (hw-000001 for HW-000001): the devices filter matches hardware ids
// exactly (the spec says free-form, so case may matter), and a lookup that found nothing is answered with the id
// that differs only by case, when one exists. Hardware ids are written in capitals (HW-000001, serials), so the
// slip is lower case: an id typed with no lower-case letter costs no second request when it is not found.
import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../errors.js';
import { rephrase } from '../shared/api-errors.js';
import { lookupPaging } from '../../api/paginate.js';
import { didYouMean, sameButForCase } from '../../shared/did-you-mean.js';

/**
 * `did you mean HW-000001?` after a lookup of `hw-000001` found no device: one more lookup, of the id in capitals.
 * Undefined when there is none, or when that lookup fails: the suggestion is a courtesy, never a second error.
 */
export async function hardwareIdCaseSuggestion(api: ApiClient, ref: string, signal?: AbortSignal): Promise<string | undefined> {
  const other = ref.toUpperCase();
  if (other === ref) return undefined;
  try {
    for await (const _device of api.list('listDevices', { query: { hardware_id: other }, signal }, lookupPaging(1))) {
      return didYouMean(ref, sameButForCase(ref, [other]));
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * A call on /v1/devices/{hardwareId}/...: its 404 (no such device, among what the spec allows) names the id that
 * differs only by case when there is one, after the words the error already has.
 */
export async function suggestingHardwareIdCase<T>(api: ApiClient, hardwareId: string, call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    const guess = await hardwareIdCaseSuggestion(api, hardwareId, signal);
    throw guess ? rephrase(error, `${(error.detail ?? error.message).replace(/[.\s]+$/, '')}; ${guess}`) : error;
  }
}
