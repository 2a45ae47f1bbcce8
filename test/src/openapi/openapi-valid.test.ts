/**
 * The document served at /v1/openapi.json is a valid OpenAPI 3.1 document, as a maintained
 * validator judges it (@readme/openapi-parser: the OpenAPI 3.1 schema plus the checks the schema
 * cannot make, such as unique operationIds), fetched from the real service over its socket. Every
 * `$ref` is internal and the validator resolves no external one, so it needs no network.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compileErrors, validate } from '@readme/openapi-parser';
import { startService, type TestService } from '../../support/service-harness.js';

type Json = Record<string, unknown>;

/** Validates offline: external references (none exist) and files are never resolved. */
const check = (api: Json) => validate(api as unknown as Parameters<typeof validate>[0], { resolve: { external: false, file: false } });

/** Every `$ref` in the document, wherever it stands. */
function references(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(references);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === '$ref' && typeof inner === 'string' ? [inner] : references(inner)));
}

describe('the OpenAPI document is valid OpenAPI 3.1', () => {
  let service: TestService;
  let served: string;

  before(async () => {
    service = await startService({ deployment: { workers: 1 } });
    const response = await fetch(`${service.url}/v1/openapi.json`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    served = await response.text();
  });
  after(() => service.close());

  /** A fresh copy each time: the validator dereferences the object it is given in place. */
  const document = () => JSON.parse(served) as Json;

  it('should pass the validator with no error and no warning', async () => {
    const result = await check(document());
    assert.ok(result.valid, compileErrors(result));
    assert.equal(result.specification, 'OpenAPI');
    assert.deepEqual(result.warnings, []);
    assert.equal(document().openapi, '3.1.0');
  });

  it('should name where its paths are served: relative to the document, on the service itself', () => {
    assert.deepEqual(
      (document().servers as { url: string }[]).map((server) => server.url),
      ['/'],
    );
  });

  it('should refer only to its own components, so nothing is fetched to read it', () => {
    const refs = references(document());
    assert.ok(refs.length > 0);
    for (const ref of refs) assert.match(ref, /^#\/components\/schemas\/[A-Za-z]+$/);
  });

  it('should be judged by a validator that refuses a description in a Media Type Object (the document once had three)', async () => {
    const broken = document() as { paths: Record<string, Record<string, { requestBody: { content: Record<string, Json> } }>> };
    broken.paths['/v1/render']!.post!.requestBody.content['text/markdown']!.description = 'The Markdown itself.';
    const result = await check(broken);
    assert.equal(result.valid, false);
    assert.match(compileErrors(result), /description/);
  });
});
