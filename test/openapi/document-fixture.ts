// Loads src/openapi/v1.json for the tests, raw and with every $ref resolved.
import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DOCUMENT_PATH = `${ROOT}src/openapi/v1.json`;
export const HTTP_METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'] as const;

export type Json = any;

export interface DocumentOperation {
  method: string;
  path: string;
  op: Json;
}

export function readDocument(): Json {
  return JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8'));
}

/** The document with every $ref replaced by its target (a fresh copy per call). */
export async function dereferencedDocument(): Promise<Json> {
  return SwaggerParser.dereference(readDocument());
}

/** Every operation under paths, as [METHOD, path template, operation object]. */
export function operationsOf(doc: Json): DocumentOperation[] {
  return Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({ method: method.toUpperCase(), path, op: item[method] })),
  );
}

export function findOperation(operations: DocumentOperation[], method: string, path: string): Json {
  const found = operations.find((o) => o.method === method && o.path === path);
  if (!found) throw new Error(`The document has no ${method} ${path}`);
  return found.op;
}

export function parameterOf(op: Json, name: string): Json {
  return op.parameters?.find((p: Json) => p.name === name);
}
