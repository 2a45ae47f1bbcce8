/**
 * The OpenAPI document served at /v1/openapi.json, checked against real answers of the real
 * service: every documented status, error code and header of POST /v1/render and GET /v1/usage
 * is provoked, every answer must be documented, its JSON body must validate against the
 * document's schema (ajv, JSON Schema 2020-12) and its headers against theirs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { defaultDeployment } from '../../../src/config/deployment.js';
import { createApp } from '../../../src/http/app.js';
import { startServer } from '../../../src/http/server.js';
import type { Sealer } from '../../../src/seal/sealer.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { StoreUnavailableError, type Store } from '../../../src/store/store.js';
import { RenderPool } from '../../../src/workers/pool.js';
import { startChildService, type ChildService } from '../net/support/child-service.js';
import { startDnsStub, type DnsStub } from '../net/support/dns-stub.js';
import { makeTestCa } from '../net/support/test-ca.js';
import { startTestServer, type TestServer } from '../net/support/test-server.js';
import { Fixtures, PASSWORD } from '../seal/support/openssl-fixtures.js';
import { TEST_MASTER_KEY, testSealer } from '../seal/support/test-sealer.js';
import { createAccount, ManualClock, render, reservations, startService, usage, type TestAccount, type TestService } from '../../support/service-harness.js';
import { FIXTURES } from '../../support/fixtures.js';
import { includedDocuments } from '../../../src/limits/plans.js';

type Operation = 'render' | 'usage';
type Schema = Record<string, unknown>;
interface DocumentedResponse {
  headers: Record<string, { required: boolean; schema: Schema }>;
  content: Record<string, { schema: Schema }>;
}

const CLI = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const PNG = readFileSync(path.join(FIXTURES, 'images/dot.png'));

describe('the OpenAPI document against real responses', () => {
  let fx: Fixtures;
  let main: TestService;
  let standIn: TestService;
  let faulty: { url: string; close(): Promise<void> };
  let net: ChildService;
  let dns: DnsStub;
  let storage: TestServer;
  let document: {
    openapi: string;
    paths: Record<string, Record<string, { responses: Record<string, DocumentedResponse> }>>;
    components: { schemas: Record<string, Schema> };
  };
  let starter: TestAccount;
  let pro: TestAccount;
  let sealerNow: number | undefined;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  /** `operation status code`, `operation status header` seen in real answers. */
  const seen = new Set<string>();

  before(async () => {
    fx = Fixtures.make();
    const sealer = testSealer({ store: () => main.store, clock: { now: () => sealerNow ?? Date.now() } });
    const compat = testSealer({ store: () => main.store, settings: { reasonsAsCodes: true } });
    // Real sealers; a seal whose reason is "cut" is handed a PDF cut short, as a seal failing after the render would be.
    const sealers: Sealer = {
      async open(request, accountId) {
        const opened = await (request.reason === 'compat' ? compat : sealer).open(request, accountId);
        return request.reason === 'cut' ? { apply: (pdf) => opened.apply(pdf.subarray(0, pdf.length - 100)) } : opened;
      },
    };
    main = await startService({ deployment: { maxBodyBytes: 256 << 10 }, sealer: sealers });
    standIn = await startService({ standIn: true, deployment: { workers: 1, queueLimit: 1 } });
    faulty = await startFaulty();

    const ca = makeTestCa(['img.example.com', 'storage.example.net']);
    storage = await startTestServer(
      {
        '/dot.png': (_request, response) => response.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG),
        '/gone.png': (_request, response) => response.writeHead(404).end(),
        '/bucket/ok.pdf': (_request, response) => response.writeHead(201).end(),
        '/bucket/forbidden.pdf': (_request, response) => response.writeHead(403).end(),
      },
      { key: ca.key, cert: ca.cert },
    );
    dns = await startDnsStub({ 'img.example.com': ['127.0.0.1'], 'storage.example.net': ['127.0.0.1'] });
    net = await startChildService({ NODE_EXTRA_CA_CERTS: ca.caFile, QUIRE_NET_DNS_SERVERS: dns.server, QUIRE_NET_ALLOW_LOOPBACK: '1' });

    starter = await createAccount(main.store, { plan: 'starter' });
    pro = await createAccount(main.store, { plan: 'pro' });
    document = (await (await fetch(`${main.url}/v1/openapi.json`)).json()) as typeof document;
  });
  after(async () => {
    await Promise.all([main.close(), standIn.close(), faulty.close(), net.close(), storage.close(), dns.close()]);
    fx.remove();
  });

  function resolve(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map(resolve);
    if (typeof schema !== 'object' || schema === null) return schema;
    const ref = (schema as { $ref?: string }).$ref;
    if (ref) return resolve(document.components.schemas[ref.replace('#/components/schemas/', '')]);
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolve(value)]));
  }

  function assertValid(schema: Schema, value: unknown, where: string): void {
    const validate = ajv.compile(resolve(schema) as Schema);
    assert.ok(validate(value), `${where}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value).slice(0, 300)}`);
  }

  /** Checks one real answer against the document; returns its body (JSON, or the PDF bytes). */
  async function check(operation: Operation, response: Response): Promise<Record<string, unknown> & { pdfBytes?: Buffer }> {
    const [pathName, method] = operation === 'render' ? ['/v1/render', 'post'] : ['/v1/usage', 'get'];
    const status = String(response.status);
    const documented = document.paths[pathName]![method]!.responses[status];
    assert.ok(documented, `${operation} answered ${status}, which the document does not list`);
    for (const [name, header] of Object.entries(documented.headers)) {
      const value = response.headers.get(name);
      if (header.required) assert.notEqual(value, null, `${operation} ${status} lacks ${name}`);
      if (value === null) continue;
      assertValid(header.schema, value, `${operation} ${status} header ${name}`);
      seen.add(`${operation} ${status} header ${name}`);
    }
    for (const name of headerNames(response)) {
      if (/^(x-service-|retry-after|www-authenticate|content-disposition)/.test(name)) {
        assert.ok(
          Object.keys(documented.headers).some((key) => key.toLowerCase() === name),
          `${operation} ${status} sent ${name}, not documented`,
        );
      }
    }
    const type = response.headers.get('content-type')!.split(';')[0]!;
    const content = documented.content[type];
    assert.ok(content, `${operation} ${status} answered ${type}, not documented`);
    if (type === 'application/pdf') {
      const pdfBytes = Buffer.from(await response.arrayBuffer());
      assert.equal(pdfBytes.subarray(0, 5).toString(), '%PDF-');
      seen.add(`${operation} ${status} pdf`);
      return { pdfBytes };
    }
    const body = (await response.json()) as Record<string, unknown>;
    assertValid(content.schema, body, `${operation} ${status} body`);
    seen.add(`${operation} ${status} ${typeof body.code === 'string' ? body.code : 'body'}`);
    return body;
  }

  const renderChecked = async (key: string | undefined, body: unknown, headers: Record<string, string> = {}, service: TestService = main) =>
    check('render', await render(service, key, body, headers));

  it('should be OpenAPI 3.1 with the two operations, the request body generated from the validating schema', () => {
    assert.equal(document.openapi, '3.1.0');
    assert.deepEqual(Object.keys(document.paths), ['/v1/render', '/v1/usage']);
    const request = document.components.schemas.RenderRequest as { properties: Record<string, Schema>; additionalProperties: boolean };
    assert.equal(request.additionalProperties, false);
    assert.deepEqual((request.properties.output as { enum: string[] }).enum, ['pdf', 'json', 'upload']);
    assert.equal((request.properties.language as { maxLength: number }).maxLength, 63);
    // The validator and the document agree: a body the schema refuses is refused by the service, one it accepts is rendered.
    const validate = ajv.compile(resolve(request) as Schema);
    assert.equal(validate({ markdown: '# Hi', features: { smartTypography: false } }), false);
    assert.equal(validate({ markdown: '# Hi', features: { theme: 'dark', tasks: false }, sign: false, language: 'de-CH' }), true);
  });

  it('should document every success: pdf, json, replay and seal headers', async () => {
    await renderChecked(starter.key, '# Raw Markdown');
    await renderChecked(starter.key, { markdown: '# Named', filename: 'Übersicht.pdf' });
    await renderChecked(starter.key, { markdown: '# JSON', output: 'json' });
    await renderChecked(starter.key, { markdown: '# Once' }, { 'Idempotency-Key': 'openapi-replay' });
    await renderChecked(starter.key, { markdown: '# Once' }, { 'Idempotency-Key': 'openapi-replay' });
    await renderChecked(pro.key, { markdown: '# Sealed', output: 'json', sign: { p12: fx.base64('p256.p12'), password: PASSWORD } });
    await renderChecked(starter.key, { markdown: '![gone](https://img.example.com/gone.png)', resources: 'lenient' });
  });

  it('should document remote resources, uploads and their failures (served by quire serve)', async () => {
    const account = await createAccount(net.store, { plan: 'starter' });
    const port = storage.port;
    const lenient = await check(
      'render',
      await render(net.harness, account.key, {
        markdown: `![a](https://img.example.com:${port}/dot.png) ![b](https://img.example.com:${port}/gone.png)`,
        resources: 'lenient',
      }),
    );
    assert.ok(lenient.pdfBytes);
    await check('render', await render(net.harness, account.key, { markdown: `![b](https://img.example.com:${port}/gone.png)` }));
    const receipt = await check(
      'render',
      await render(net.harness, account.key, {
        markdown: '# Uploaded',
        output: 'upload',
        upload_url: `https://storage.example.net:${port}/bucket/ok.pdf?sig=1`,
      }),
    );
    assert.equal(receipt.status, 201);
    const refused = await check(
      'render',
      await render(net.harness, account.key, {
        markdown: '# Refused',
        output: 'upload',
        upload_url: `https://storage.example.net:${port}/bucket/forbidden.pdf`,
      }),
    );
    assert.deepEqual([refused.code, refused.status], ['upload_failed', 403]);
    for (const header of ['X-Service-Fetch-Id', 'X-Service-Resources-Failed', 'X-Service-Resources-Failed-Ids'])
      assert.ok(seen.has(`render 200 header ${header}`), header);
  });

  it('should document the refusals made on the request as sent', async () => {
    const expectations: [unknown, Record<string, string>, string][] = [
      [{ markdown: '# Hi', colour: 'red' }, {}, 'invalid_request'],
      [{ markdown: '' }, {}, 'empty_document'],
      [{ markdown: '# Hi', sign: { p12: fx.base64('p256.p12'), password: 'wrong' } }, {}, 'invalid_bundle'],
      [{ markdown: '# Hi', sign: { certificate: 'nothing-stored' } }, {}, 'unknown_signing_identity'],
      [{ markdown: '# Hi', sign: { p12: fx.base64('p256.p12'), password: 'wrong', reason: 'compat' } }, {}, 'wrong_password'],
      [
        { markdown: '# Hi', sign: { key: fx.text('other.key'), cert: fx.text('p256.pem'), chain: fx.text('chain.pem'), reason: 'compat' } },
        {},
        'key_cert_mismatch',
      ],
      [{ markdown: '# Hi', sign: { certificate: 'main' } }, { 'Idempotency-Key': 'sealed' }, 'signing_unavailable'],
      [{ markdown: '# Hi', output: 'upload', upload_url: 'https://storage.example.com/a.pdf' }, {}, 'render_unavailable'],
      [{ markdown: `${'>'.repeat(100)} deep` }, {}, 'payload_too_large'],
      [{ markdown: 'x'.repeat(300 << 10) }, {}, 'payload_too_large'],
      [{ markdown: Array.from({ length: 51 }, (_, i) => `![](https://img.example.com/${i}.png)`).join('\n') }, {}, 'too_many_resources'],
      [{ markdown: '![](https://img.example.com/dot.png)' }, {}, 'resource_fetch_failed'],
      [{ markdown: '# Cut', sign: { p12: fx.base64('p256.p12'), password: PASSWORD, reason: 'cut' } }, {}, 'signing_failed'],
    ];
    for (const [body, headers, code] of expectations) {
      const answer = await renderChecked(pro.key, body, headers);
      assert.equal(answer.code, code, JSON.stringify(body).slice(0, 100));
    }
    assert.equal((await renderChecked(undefined, '# Hi')).code, 'unauthorized');
    const free = await createAccount(main.store, { plan: 'free' });
    assert.equal((await renderChecked(free.key, { markdown: '# Hi', sign: { certificate: 'main' } })).code, 'plan_required');
    const blocked = await createAccount(main.store);
    await main.store.updateAccount(blocked.id, { blocked: true });
    assert.equal((await renderChecked(blocked.key, '# Hi')).code, 'account_blocked');
    const unverified = await createAccount(main.store, { emailVerified: false });
    assert.equal((await renderChecked(unverified.key, '# Hi')).code, 'email_unverified');
    const small = await createAccount(main.store, { overrides: { markdown_kb: 1, documents: 1, requests_per_min: 3 } });
    assert.equal((await renderChecked(small.key, 'x'.repeat(2048))).code, 'payload_too_large');
    assert.ok((await renderChecked(small.key, '# First')).pdfBytes);
    assert.equal((await renderChecked(small.key, '# Second')).code, 'quota_exhausted');
    assert.equal((await renderChecked(small.key, '# Third')).code, 'rate_limited');
  });

  it('should document page limits, key reuse, replay allowance and stored certificates past their date', async () => {
    const paged = await createAccount(main.store, { overrides: { pages_max: 1 } });
    assert.equal(
      (await renderChecked(paged.key, Array.from({ length: 200 }, (_, i) => `Paragraph ${i} of a document too long for one page.`).join('\n\n'))).code,
      'too_many_pages',
    );
    const free = await createAccount(main.store, { plan: 'free' });
    for (let i = 0; i < 3; i += 1) await renderChecked(free.key, { markdown: '# Replayed' }, { 'Idempotency-Key': 'allowance' });
    assert.equal((await renderChecked(free.key, { markdown: '# Replayed' }, { 'Idempotency-Key': 'allowance' })).code, 'idempotency_replay_limit');
    assert.equal((await renderChecked(free.key, { markdown: '# Other' }, { 'Idempotency-Key': 'allowance' })).code, 'idempotency_mismatch');

    const added = spawnSync(
      process.execPath,
      [CLI, 'cert', 'add', pro.id, '--name', 'main', '--p12', fx.path('p256.p12'), '--password', PASSWORD, '--db', main.dbFile],
      {
        env: { ...process.env, QUIRE_MASTER_KEY: TEST_MASTER_KEY },
        encoding: 'utf8',
      },
    );
    assert.equal(added.status, 0, added.stderr);
    sealerNow = Date.now() + 2 * 365 * 86_400_000;
    try {
      assert.equal((await renderChecked(pro.key, { markdown: '# Late', sign: { certificate: 'main' } })).code, 'certificate_expired');
    } finally {
      sealerNow = undefined;
    }
  });

  it('should document what workers answer: timeouts, failures, crashes, a full queue, a key in use', async () => {
    const account = await createAccount(standIn.store, { overrides: { timeout_s: 1 } });
    assert.equal((await renderChecked(account.key, 'hang', {}, standIn)).code, 'render_timeout');
    assert.equal((await renderChecked(account.key, 'throw', {}, standIn)).code, 'render_failed');
    assert.equal((await renderChecked(account.key, 'crash', {}, standIn)).code, 'render_failed');
    const holder = await createAccount(standIn.store);
    const gate = path.join(standIn.dir, 'gate');
    const held = render(standIn, holder.key, `gate:${gate}\n# Held`, { 'Idempotency-Key': 'held' });
    // The one worker is taken once the held render's document is reserved.
    while (reservations(standIn, holder.id).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal((await renderChecked(holder.key, `gate:${gate}\n# Held`, { 'Idempotency-Key': 'held' }, standIn)).code, 'idempotency_in_progress');
    const waiting = await createAccount(standIn.store);
    const queued = render(standIn, waiting.key, `gate:${gate}\n# Queued`);
    while (reservations(standIn, waiting.id).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal((await renderChecked(account.key, '# One too many', {}, standIn)).code, 'queue_full');
    writeFileSync(gate, '');
    await check('render', await held);
    await check('render', await queued);
  });

  it('should document GET /v1/usage: the report, the period header and every refusal', async () => {
    const body = await check('usage', await usage(main, starter.key));
    assert.equal(body.plan, 'starter');
    assert.ok(seen.has('usage 200 header X-Service-Period-Id'));
    assert.equal((await check('usage', await usage(main, starter.key, '?period=0'))).code, 'invalid_request');
    assert.equal((await check('usage', await usage(main, starter.key, '?period=99999'))).code, 'not_found');
    assert.equal((await check('usage', await fetch(`${main.url}/v1/usage`))).code, 'unauthorized');
    const blocked = await createAccount(main.store);
    await main.store.updateAccount(blocked.id, { blocked: true });
    assert.equal((await check('usage', await usage(main, blocked.key))).code, 'account_blocked');
    const unverified = await createAccount(main.store, { emailVerified: false });
    assert.equal((await check('usage', await usage(main, unverified.key))).code, 'email_unverified');
  });

  it('should document unclassified failures and an unavailable store, on both operations', async () => {
    const get = (key: string) => fetch(`${faulty.url}/v1/usage`, { headers: { Authorization: `Bearer ${key}` } });
    const post = (key: string) => fetch(`${faulty.url}/v1/render`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: '# Hi' });
    assert.equal((await check('usage', await get('broken'))).code, 'internal_error');
    assert.equal((await check('usage', await get('unavailable'))).code, 'quota_unavailable');
    assert.equal((await check('render', await post('broken'))).code, 'internal_error');
    assert.equal((await check('render', await post('unavailable'))).code, 'quota_unavailable');
  });

  it('should have seen every documented status, code and header', () => {
    const missing: string[] = [];
    for (const [operation, pathName, method] of [
      ['render', '/v1/render', 'post'],
      ['usage', '/v1/usage', 'get'],
    ] as const) {
      for (const [status, response] of Object.entries(document.paths[pathName]![method]!.responses)) {
        for (const name of Object.keys(response.headers))
          if (!seen.has(`${operation} ${status} header ${name}`)) missing.push(`${operation} ${status} header ${name}`);
        const json = response.content['application/json']?.schema as { properties?: { code?: { enum: string[] } } } | undefined;
        for (const code of json?.properties?.code?.enum ?? []) if (!seen.has(`${operation} ${status} ${code}`)) missing.push(`${operation} ${status} ${code}`);
        if (response.content['application/pdf'] && !seen.has(`${operation} ${status} pdf`)) missing.push(`${operation} ${status} pdf`);
      }
    }
    assert.deepEqual(missing, []);
  });
});

/** The real app over a store whose key "broken" throws an unclassified error and "unavailable" a store failure. */
async function startFaulty(): Promise<{ url: string; close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-openapi-'));
  const real = SqliteStore.open(path.join(dir, 'quire.db'), new ManualClock(), { included: includedDocuments });
  const store = new Proxy(real, {
    get(target, name) {
      if (name === 'authenticate') {
        return async (key: string) => {
          if (key === 'broken') throw new TypeError('an unclassified failure');
          if (key === 'unavailable') throw new StoreUnavailableError('the database is locked');
          return target.authenticate(key);
        };
      }
      const value: unknown = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Store;
  const config = { ...defaultDeployment(), workers: 1 };
  const pool = new RenderPool({ size: 1, queueLimit: 4, memoryMb: config.workerMemoryMb });
  const server = await startServer(createApp({ store, clock: new ManualClock(), pool, config, log: () => undefined }), pool, {
    port: 0,
    hostname: '127.0.0.1',
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    async close() {
      await server.close(0);
      await real.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function headerNames(response: Response): string[] {
  const names: string[] = [];
  response.headers.forEach((_value, name) => names.push(name));
  return names;
}
