// The API's OpenAPI document, served at /openapi/v1.json. Imported (not read from disk) so the esbuild
// bundle of the CLI carries it wherever dist/ goes.
import document from '../../openapi/v1.json' with { type: 'json' };

export const openApiDocument = (): unknown => document;
