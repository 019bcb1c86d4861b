// The fields a record is declared to carry, for the output layer's checks of --columns and --sort: what the
// document in use (served, else bundled) says the records of an operation carry, dotted for nested members. The
// operation is found by method and path, as the spec states them, never by the document's operationIds.
import { recordFieldNames, responseRecordSchema, type OpenApiDoc } from '../openapi/document-shapes.js';
import { operation } from '../openapi/operations.js';
import type { OperationId } from '../openapi/operation-types.js';

/** Undefined for an operation the document gives no record schema: the records alone then decide. */
export function declaredFieldsIn(load: () => Promise<{ document: OpenApiDoc }>) {
  return async (operationId: OperationId): Promise<ReadonlySet<string> | undefined> => {
    const { document } = await load();
    const { method, path: template } = operation(operationId);
    const schema = responseRecordSchema(document, method, template);
    return schema ? new Set(recordFieldNames(schema)) : undefined;
  };
}
