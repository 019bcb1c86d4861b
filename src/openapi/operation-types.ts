// Request and answer types of each operation, read off the types generated from the document, so a call
// to an unknown operation or with a parameter the document does not have fails to compile.
import type { components, operations } from './types.gen.js';
import type { OperationId } from './operations.gen.js';

export type { OperationId } from './operations.gen.js';

/** A record schema of the document, such as Schema<'Device'>. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

type Parameters<Id extends OperationId> = operations[Id]['parameters'];
export type PathParams<Id extends OperationId> = NonNullable<Parameters<Id>['path']>;
export type Query<Id extends OperationId> = NonNullable<Parameters<Id>['query']>;
export type RequestBody<Id extends OperationId> = NonNullable<operations[Id]['requestBody']>['content']['application/json'];

type SuccessStatus = 200 | 201 | 202 | 204;
type JsonContent<Answer> = Answer extends { content: { 'application/json': infer Body } } ? Body : undefined;
/** The body of the operation's success answer (undefined for 204). */
export type ResponseBody<Id extends OperationId> = JsonContent<operations[Id]['responses'][SuccessStatus & keyof operations[Id]['responses']]>;

/** The operations that answer with a page of records (the collection envelope). */
export type ListOperationId = {
  [Id in OperationId]: ResponseBody<Id> extends { data: unknown[]; has_more: boolean } ? Id : never;
}[OperationId];
export type ListItem<Id extends ListOperationId> = ResponseBody<Id> extends { data: (infer Item)[] } ? Item : never;

interface Common {
  /** A list is sent as one header, its values joined by commas (OpenAPI's simple style, the only one for headers). */
  headers?: Record<string, string | readonly string[]>;
  signal?: AbortSignal;
}

/** Path parameters and a body the document requires are required; those it does not have cannot be given. */
export type CallOptions<Id extends OperationId> = Common &
  ([PathParams<Id>] extends [never] ? { pathParams?: never } : { pathParams: PathParams<Id> }) &
  ([Query<Id>] extends [never] ? { query?: never } : { query?: Query<Id> }) &
  ([RequestBody<Id>] extends [never] ? { body?: never } : undefined extends operations[Id]['requestBody'] ? { body?: RequestBody<Id> } : { body: RequestBody<Id> });

/** The options argument, optional when nothing in it is required. */
export type CallArguments<Id extends OperationId> = object extends CallOptions<Id> ? [options?: CallOptions<Id>] : [options: CallOptions<Id>];
