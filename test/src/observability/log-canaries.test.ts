/**
 * The service log as `quire serve` writes it: one JSON line per request with its id, account,
 * status, code, pages and phase timings — and, after requests carrying canaries everywhere a
 * secret can travel (API keys, seal passwords and bundles, upload and image URLs, document text,
 * filenames, field names, Idempotency-Keys), no canary in any line.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startChildService, type ChildService } from '../net/support/child-service.js';
import { startDnsStub, type DnsStub } from '../net/support/dns-stub.js';
import { makeTestCa } from '../net/support/test-ca.js';
import { startTestServer, type TestServer } from '../net/support/test-server.js';
import { Fixtures, PASSWORD } from '../seal/support/openssl-fixtures.js';
import { createAccount, render, usage, type TestAccount } from '../../support/service-harness.js';
import { FIXTURES } from '../../support/fixtures.js';

const PNG = readFileSync(path.join(FIXTURES, 'images/dot.png'));

describe('request log lines and canaries', () => {
  let fx: Fixtures;
  let dns: DnsStub;
  let storage: TestServer;
  let service: ChildService;
  let starter: TestAccount;
  let pro: TestAccount;
  const canary = (what: string) => `CANARY${what}${randomUUID().replaceAll('-', '')}`;
  const canaries = {
    document: canary('DOC'),
    heading: canary('HEADING'),
    filename: canary('FILE'),
    field: canary('FIELD'),
    idempotency: canary('IDEM'),
    uploadSignature: canary('UPLOADSIG'),
    imagePath: canary('IMG'),
    password: canary('PASS'),
    wrongPassword: canary('WRONG'),
    fakeKey: `quire_${canary('KEY')}`,
  };
  /** X-Request-Id of each request made, with what its log line must say. */
  const expected: { id: string; status: number; account: string | null; code: string | null; pages?: number; tool?: string }[] = [];

  before(async () => {
    fx = Fixtures.make();
    execFileSync(
      'openssl',
      ['pkcs12', '-export', '-inkey', 'p256.key', '-in', 'p256.pem', '-certfile', 'chain.pem', '-passout', `pass:${canaries.password}`, '-out', 'canary.p12'],
      { cwd: fx.dir },
    );
    const ca = makeTestCa(['img.example.com', 'storage.example.net']);
    storage = await startTestServer(
      {
        [`/${canaries.imagePath}.png`]: (_request, response) => response.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG),
        '/bucket/ok.pdf': (_request, response) => response.writeHead(201).end(),
        '/bucket/forbidden.pdf': (_request, response) => response.writeHead(403).end(),
      },
      { key: ca.key, cert: ca.cert },
    );
    dns = await startDnsStub({ 'img.example.com': ['127.0.0.1'], 'storage.example.net': ['127.0.0.1'] });
    service = await startChildService({ NODE_EXTRA_CA_CERTS: ca.caFile, QUIRE_NET_DNS_SERVERS: dns.server, QUIRE_NET_ALLOW_LOOPBACK: '1' });
    starter = await createAccount(service.store, { plan: 'starter' });
    pro = await createAccount(service.store, { plan: 'pro' });
  });
  after(async () => {
    await Promise.all([service.close(), storage.close(), dns.close()]);
    fx.remove();
  });

  async function send(account: TestAccount | undefined, body: unknown, headers: Record<string, string> = {}, key = account?.key): Promise<Response> {
    const response = await render(service.harness, key, body, headers);
    const error = response.status === 200 ? null : ((await response.clone().json()) as { code: string }).code;
    expected.push({
      id: response.headers.get('x-request-id')!,
      status: response.status,
      account: account?.id ?? null,
      code: error,
      ...(response.status === 200 && { pages: Number(response.headers.get('x-service-pages')) }),
    });
    await response.arrayBuffer();
    return response;
  }

  it('should serve requests carrying canaries wherever a secret can travel', async () => {
    const port = storage.port;
    const upload = (file: string) => `https://storage.example.net:${port}/bucket/${file}?X-Amz-Signature=${canaries.uploadSignature}`;
    const statuses = [
      await send(
        starter,
        {
          markdown: `# ${canaries.heading}\n\n${canaries.document} ![i](https://img.example.com:${port}/${canaries.imagePath}.png)`,
          filename: `${canaries.filename}.pdf`,
        },
        { 'Idempotency-Key': canaries.idempotency },
      ),
      await send(
        starter,
        { markdown: `# ${canaries.heading}\n\n${canaries.document} ![i](https://img.example.com:${port}/${canaries.imagePath}.png)` },
        { 'Idempotency-Key': canaries.idempotency },
      ),
      await send(starter, { markdown: canaries.document, output: 'upload', upload_url: upload('ok.pdf') }),
      await send(starter, { markdown: canaries.document, output: 'upload', upload_url: upload('forbidden.pdf') }),
      await send(starter, { markdown: canaries.document, output: 'upload', upload_url: `http://storage.example.net/${canaries.uploadSignature}` }),
      await send(starter, { markdown: canaries.document, [canaries.field]: true }),
      await send(pro, { markdown: canaries.document, sign: { p12: fx.base64('canary.p12'), password: canaries.password } }),
      await send(pro, { markdown: canaries.document, sign: { p12: fx.base64('canary.p12'), password: canaries.wrongPassword } }),
      await send(pro, {
        markdown: canaries.document,
        sign: { key: fx.text('p256.key'), cert: fx.text('p256.pem'), chain: fx.text('chain.pem'), password: PASSWORD },
      }),
      await send(undefined, canaries.document, {}, canaries.fakeKey),
    ].map((response) => response.status);
    assert.deepEqual(statuses, [200, 200, 200, 424, 400, 400, 200, 400, 200, 401]);
    const report = await usage(service.harness, starter.key);
    expected.push({ id: report.headers.get('x-request-id')!, status: 200, account: starter.id, code: null });
    await report.arrayBuffer();
  });

  it('should log one JSON line per request, with its id, account, status, code, pages and phase timings', () => {
    const lines = service
      .stderr()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const line of lines) {
      assert.equal(typeof line.level, 'string');
      assert.match(String(line.time), /^\d{4}-\d\d-\d\dT/);
    }
    const requests = lines.filter((line) => line.event === 'request');
    for (const want of expected) {
      const matching = requests.filter((line) => line.request_id === want.id);
      assert.equal(matching.length, 1, `one line for ${want.id}`);
      const line = matching[0]!;
      assert.deepEqual([line.status, line.account, line.code], [want.status, want.account, want.code]);
      if (want.pages !== undefined && line.route === '/v1/render') {
        assert.equal(line.pages, want.pages);
        const timings = line.timings as Record<string, number>;
        assert.deepEqual(Object.keys(timings), ['queue', 'setup', 'render', 'serialize', 'total']);
      }
    }
    assert.equal(requests.length, expected.length);
  });

  it('should never log a canary, an API key, a credential, an upload URL or document text', () => {
    const log = service.stderr();
    for (const [name, value] of Object.entries(canaries)) assert.equal(log.includes(value), false, `${name} canary in the log`);
    for (const key of [starter.key, pro.key]) assert.equal(log.includes(key), false, 'an API key in the log');
    assert.equal(log.includes(fx.text('p256.key').split('\n')[1]!), false, 'a private key line in the log');
    assert.equal(log.includes('storage.example.net'), false, 'an upload host in the log');
    assert.equal(log.includes('img.example.com'), false, 'an image host in the log');
  });
});
