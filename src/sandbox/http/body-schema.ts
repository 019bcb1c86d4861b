// The sandbox's wrapper of the schema validator: a JSON request body that does not conform to its schema is
// 400 request.invalid_body, problem+json with invalid_params naming the member (from the instance path).
import { checkShape, type SchemaDocument, type SchemaIssue } from '../../openapi/schema-check.js';
import { invalidBody, problem } from '../common/problems.js';

export type JsonObject = Record<string, unknown>;

/** The first issue of a body against a schema, for routes that answer some keywords their own way. */
export async function bodyIssue(doc: SchemaDocument, name: string, body: unknown): Promise<SchemaIssue | null> {
  if (body === undefined) throw problem(400, 'request.invalid_body', 'A JSON request body is required.');
  return checkShape(doc, name, body);
}

export function issueProblem(issue: SchemaIssue) {
  return invalidBody(issue.member || 'body', issue.reason);
}

/** The body when it conforms to the schema `name` of `doc` (what the document promises of it, as T). */
export async function requireShape<T = JsonObject>(doc: SchemaDocument, name: string, body: unknown): Promise<T> {
  const issue = await bodyIssue(doc, name, body);
  if (issue) throw issueProblem(issue);
  return body as T;
}
