// Calls are checked against the OpenAPI document by the compiler (`npm run typecheck`, tsc over test/): an
// operation the document does not have, a parameter or body member it does not describe, or one it requires
// left out, fails to compile. Each @ts-expect-error below fails the typecheck if that mistake ever compiles.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ApiClient, type ApiResponse } from '../../src/api/client.js';
import type { Pager } from '../../src/api/paginate.js';
import type { ListOperationId, OperationId, RequestBody, ResponseBody, Schema } from '../../src/openapi/operation-types.js';
import { OPERATIONS } from '../../src/openapi/operations.js';

const paging = { limit: 10, all: false };

/** Never run: only compiled. */
function mistakes(api: ApiClient): void {
  // without a mistake: options left out where nothing is required, and a body member the document allows as null
  void api.call('listFleets');
  void api.call('updateDriver', { pathParams: { id: 'x' }, body: { email: null } });
  // @ts-expect-error an operation the document does not have
  void api.call('rebootEverything', {});
  // @ts-expect-error a path parameter the operation does not have
  void api.call('getDevice', { pathParams: { deviceId: 'x' } });
  // @ts-expect-error a required path parameter left out
  void api.call('getDevice', {});
  // @ts-expect-error path parameters for an operation without any
  void api.call('listFleets', { pathParams: { id: 'x' } });
  // @ts-expect-error a query parameter the operation does not have
  void api.list('listDevices', { query: { vehicle_id: 'x' } }, paging);
  // @ts-expect-error a query parameter of the wrong type (limit is a number)
  void api.call('listDevices', { query: { limit: '5' } });
  // @ts-expect-error a body member of the wrong type
  void api.call('updateWebhookConfig', { pathParams: { organizationId: 'o' }, body: { is_enabled: 'yes' } });
  // @ts-expect-error the create-driver body is required
  void api.call('createDriver');
  // @ts-expect-error a body for an operation that takes none
  void api.call('getDevice', { pathParams: { id: 'x' }, body: {} });
  // @ts-expect-error a single record is not a list
  void api.list('getDevice', { pathParams: { id: 'x' } }, paging);
}

describe('typed calls', () => {
  it('knows exactly the operations of the document', () => {
    expect(typeof mistakes).toBe('function');
    expectTypeOf<OperationId>().toEqualTypeOf<(typeof OPERATIONS)[number]['operationId']>();
    expectTypeOf<'listDevices'>().toExtend<ListOperationId>();
    expectTypeOf<'getDevice'>().not.toExtend<ListOperationId>();
  });

  it('answers unknown until the record boundary reads it, a single record as a list of them', () => {
    // spec: every record's fields are "not shown": the bundled document's types are a guess, not the answer's
    expectTypeOf(ApiClient.prototype.call<'getDevice'>).returns.toEqualTypeOf<Promise<ApiResponse<unknown>>>();
    expectTypeOf(ApiClient.prototype.call<'rebootDevice'>).returns.toEqualTypeOf<Promise<ApiResponse<unknown>>>();
    expectTypeOf(ApiClient.prototype.list<'listDevices'>).returns.toEqualTypeOf<Pager<unknown>>();
    expectTypeOf<ResponseBody<'unassignDevice'>>().toEqualTypeOf<undefined>();
    expectTypeOf<RequestBody<'createDriver'>>().toEqualTypeOf<Schema<'CreateDriverCommand'>>();
  });
});
