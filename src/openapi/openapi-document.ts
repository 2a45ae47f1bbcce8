/**
 * The OpenAPI 3.1 document of the two operations, served at /v1/openapi.json. Request and
 * response bodies are generated from the zod schemas that validate requests and type responses;
 * what is written here is which status answers with which codes and headers.
 */
import { z } from 'zod';
import { RENDER_FIELDS } from '../render/render-request.js';
import { IDEMPOTENCY_KEY_SCHEMA } from '../render/idempotency.js';
import type { ErrorCode } from '../service-error.js';
import { PERIOD_SCHEMA } from '../usage/read-usage.js';
import { ERROR_STATUSES, type ErrorStatus, type Operation } from './error-catalog.js';
import { HEADERS, type HeaderName } from './headers.js';
import { errorBodySchema, RENDER_JSON_SCHEMA, UPLOAD_RECEIPT_SCHEMA, USAGE_REPORT_SCHEMA } from './response-schemas.js';

type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), without its `$schema` line. */
export function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function header(name: HeaderName, required: boolean) {
  const { schema, description } = HEADERS[name];
  return { description, required, schema: jsonSchema(schema) };
}

/** A request's own X-Request-Id, kept when well formed (it then names the request in the log and the answer). */
const REQUEST_ID_PARAMETER = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  schema: jsonSchema(HEADERS['X-Request-Id'].schema),
  description: 'Your own id for this request: kept when it is 1 to 128 characters of A-Z a-z 0-9 . _ : -, else replaced by a new UUID.',
};

function headers(required: readonly HeaderName[], optional: readonly HeaderName[] = []) {
  return Object.fromEntries([...required.map((name) => [name, header(name, true)] as const), ...optional.map((name) => [name, header(name, false)] as const)]);
}

/** Every response that is not a success: the Error body with `code` narrowed to the status's codes. */
function errorResponses(operation: Operation) {
  return Object.fromEntries(
    Object.entries(ERROR_STATUSES[operation]).map(([status, entry]: [string, ErrorStatus]) => [
      status,
      {
        description: entry.description,
        headers: headers(['Cache-Control', 'X-Request-Id', ...(entry.headers ?? [])], entry.optionalHeaders ?? []),
        content: { 'application/json': { schema: jsonSchema(errorBodySchema(entry.codes as [ErrorCode, ...ErrorCode[]])) } },
      },
    ]),
  );
}

function build(): JsonSchema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quire',
      version: '1',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      description:
        'Markdown to PDF; described in full in docs/api.md of the Quire repository. Every response carries Cache-Control: no-store. A path that does not exist answers 404 not_found; ' +
        'a known path with another method answers 405 method_not_allowed with an Allow header.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    // Relative: the service that serves this document answers its paths, whatever name it is reached by.
    servers: [{ url: '/', description: 'The service serving this document.' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' } },
      schemas: {
        RenderRequest: jsonSchema(z.strictObject(RENDER_FIELDS)),
        RenderJson: jsonSchema(RENDER_JSON_SCHEMA),
        UploadReceipt: jsonSchema(UPLOAD_RECEIPT_SCHEMA),
        UsageReport: jsonSchema(USAGE_REPORT_SCHEMA),
      },
    },
    paths: {
      '/v1/render': {
        post: {
          operationId: 'render',
          summary: 'Render Markdown to PDF',
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              schema: jsonSchema(IDEMPOTENCY_KEY_SCHEMA),
              description: IDEMPOTENCY_KEY_SCHEMA.description,
            },
            REQUEST_ID_PARAMETER,
          ],
          requestBody: {
            required: true,
            // A Media Type Object has no description: what each type means is said here.
            description:
              'application/json: the RenderRequest object. text/markdown, any other type or none: the body is the Markdown itself, every other field at its default.',
            content: {
              'application/json': { schema: ref('RenderRequest') },
              'text/markdown': { schema: { type: 'string' } },
              '*/*': { schema: { type: 'string', contentMediaType: 'text/markdown' } },
            },
          },
          responses: {
            200: {
              description:
                'The PDF, by the requested delivery: application/pdf for output pdf (with Content-Disposition); application/json for output json (RenderJson) and upload (UploadReceipt).',
              headers: headers(
                ['Cache-Control', 'X-Request-Id', 'Server-Timing', 'X-Service-Pages', 'X-Service-Delivery', 'X-Service-SHA256'],
                [
                  'Content-Disposition',
                  'X-Service-Signature',
                  'X-Service-Replay',
                  'X-Service-Fetch-Id',
                  'X-Service-Resources-Failed',
                  'X-Service-Resources-Failed-Ids',
                ],
              ),
              content: {
                'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
                'application/json': { schema: { oneOf: [ref('RenderJson'), ref('UploadReceipt')] } },
              },
            },
            ...errorResponses('render'),
          },
        },
      },
      '/v1/usage': {
        get: {
          operationId: 'usage',
          summary: "The account's usage in a period",
          parameters: [
            { name: 'period', in: 'query', required: false, schema: jsonSchema(PERIOD_SCHEMA), description: PERIOD_SCHEMA.description },
            REQUEST_ID_PARAMETER,
          ],
          responses: {
            200: {
              description: 'The usage report.',
              headers: headers(['Cache-Control', 'X-Request-Id'], ['X-Service-Period-Id']),
              content: { 'application/json': { schema: ref('UsageReport') } },
            },
            ...errorResponses('usage'),
          },
        },
      },
    },
  };
}

let built: string | undefined;

/** The document as served, built once. */
export function openApiJson(): string {
  return (built ??= JSON.stringify(build()));
}
