/**
 * Upload delivery end to end: the service runs as a child process trusting a CA made here, its
 * DNS pointed at a stub, and PUTs to a local HTTPS "storage" that records exactly what arrives.
 * Nothing connects outside loopback.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startChildService, type ChildService } from './support/child-service.js';
import { startDnsStub, type DnsStub } from './support/dns-stub.js';
import { makeTestCa } from './support/test-ca.js';
import { startTestServer, type Hit, type TestServer } from './support/test-server.js';
import { createAccount, errorBody, render, reservations, usage } from '../../support/service-harness.js';

const SECRET = 'X-Amz-Signature=0ddba11c0ffee';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('upload delivery through the service', { concurrency: true }, () => {
  let dns: DnsStub;
  let storage: TestServer;
  /** Reached by nothing unless the policy fails: its connections prove refusals were made before connecting. */
  let sentinel: TestServer;
  let stall: Server;
  const stalled: Socket[] = [];
  let service: ChildService;
  let noLoopback: ChildService;
  let uploadOff: ChildService;
  let base: string;
  const UPLOAD_SECONDS = 3;
  const hitsFor = (target: string): Hit[] => storage.hits.filter((hit) => hit.target === target);

  before(async () => {
    const ca = makeTestCa(['storage.example.net', 'sentinel.example.net', '127.0.0.1']);
    storage = await startTestServer(
      {
        '/bucket/ok.pdf': (_request, response) => response.writeHead(201).end(),
        '/bucket/forbidden.pdf': (_request, response) =>
          response.writeHead(403, { 'Content-Type': 'application/xml' }).end('<Error><Code>SignatureDoesNotMatch</Code></Error>'),
        '/bucket/redirect.pdf': (_request, response) => response.writeHead(307, { Location: '/bucket/ok.pdf?redirected' }).end(),
        '/bucket/never.pdf': () => undefined,
      },
      { key: ca.key, cert: ca.cert },
    );
    sentinel = await startTestServer({}, { key: ca.key, cert: ca.cert });
    // Accepts connections and never starts TLS.
    stall = createServer((socket) => stalled.push(socket));
    await new Promise<void>((resolve) => stall.listen(0, '127.0.0.1', resolve));
    dns = await startDnsStub({
      'storage.example.net': ['127.0.0.1'],
      'sentinel.example.net': ['127.0.0.1'],
      'impostor.example.org': ['127.0.0.1'],
      'private.example.net': ['192.168.7.7'],
      'broken.example.net': 'servfail',
    });
    base = `https://storage.example.net:${storage.port}/bucket`;
    const common = { NODE_EXTRA_CA_CERTS: ca.caFile, QUIRE_NET_DNS_SERVERS: dns.server };
    [service, noLoopback, uploadOff] = await Promise.all([
      // Storage that never answers is given up on after the upload time: 60 s by default, 3 s here.
      startChildService({ ...common, QUIRE_NET_ALLOW_LOOPBACK: '1', QUIRE_UPLOAD_TIMEOUT_S: String(UPLOAD_SECONDS) }),
      startChildService(common),
      startChildService({ ...common, QUIRE_NET_ALLOW_LOOPBACK: '1', QUIRE_UPLOAD: 'off' }),
    ]);
  });
  after(async () => {
    await Promise.all([service?.close(), noLoopback?.close(), uploadOff?.close()]);
    for (const socket of stalled) socket.destroy();
    await new Promise((resolve) => stall?.close(resolve));
    await storage?.close();
    await sentinel?.close();
    await dns?.close();
  });

  it('should PUT exactly the PDF, to exactly the URL, with only Content-Type and Content-Length, then answer the receipt', async () => {
    const account = await createAccount(service.store);
    const target = `/bucket/ok.pdf?${SECRET}&x-id=PutObject&slash=%2F`;
    const response = await render(service.harness, account.key, {
      markdown: '# Uploaded\n\nBody.',
      output: 'upload',
      upload_url: `${base.replace('/bucket', '')}${target}`,
    });
    assert.equal(response.status, 200);
    const receipt = (await response.json()) as Record<string, unknown>;
    const [hit] = hitsFor(target);
    assert.ok(hit, 'the storage received the PUT');
    assert.equal(hit.method, 'PUT');
    const headers: Record<string, string> = {};
    for (let i = 0; i < hit.rawHeaders.length; i += 2) headers[hit.rawHeaders[i]!.toLowerCase()] = hit.rawHeaders[i + 1]!;
    assert.deepEqual(headers, {
      host: `storage.example.net:${storage.port}`,
      'content-type': 'application/pdf',
      'content-length': String(hit.body.length),
      connection: 'close',
    });
    assert.equal(hit.body.subarray(0, 5).toString(), '%PDF-');
    assert.deepEqual(receipt, { uploaded: true, pages: 1, bytes: hit.body.length, sha256: sha256(hit.body), status: 201 });
    assert.equal(response.headers.get('x-service-sha256'), sha256(hit.body));
    assert.equal(response.headers.get('content-disposition'), null);
    assert.deepEqual(
      reservations(service.harness, account.id).map((row) => row.state),
      ['charged'],
    );
  });

  it('should answer 424 with the storage status on a refusal (403) and return the document', async () => {
    const account = await createAccount(service.store);
    const response = await render(service.harness, account.key, { markdown: '# Refused', output: 'upload', upload_url: `${base}/forbidden.pdf?${SECRET}` });
    assert.equal(response.status, 424);
    const error = await errorBody(response);
    assert.deepEqual([error.code, error.status], ['upload_failed', 403]);
    assert.doesNotMatch(JSON.stringify(error), /storage\.example|0ddba11|Signature/);
    assert.deepEqual(reservations(service.harness, account.id), [{ state: 'returned', error_code: 'upload_failed', pages: null }]);
  });

  it('should treat a redirect as a failure and never follow it', async () => {
    const account = await createAccount(service.store);
    const response = await render(service.harness, account.key, { markdown: '# Moved', output: 'upload', upload_url: `${base}/redirect.pdf?${SECRET}` });
    assert.equal(response.status, 424);
    assert.equal((await errorBody(response)).status, 307);
    assert.equal(hitsFor('/bucket/ok.pdf?redirected').length, 0);
    assert.deepEqual(
      reservations(service.harness, account.id).map((row) => row.state),
      ['returned'],
    );
  });

  it('should give up on storage that never answers after the upload time: 424 with status null', { timeout: 60_000 }, async () => {
    const account = await createAccount(service.store);
    const started = Date.now();
    const response = await render(service.harness, account.key, { markdown: '# Waiting', output: 'upload', upload_url: `${base}/never.pdf?${SECRET}` });
    assert.ok(Date.now() - started >= UPLOAD_SECONDS * 1000, 'not before the upload time');
    assert.equal(response.status, 424);
    assert.equal((await errorBody(response)).status, null);
    assert.equal(hitsFor(`/bucket/never.pdf?${SECRET}`).length, 1, 'the PUT arrived once and was not retried');
    assert.deepEqual(
      reservations(service.harness, account.id).map((row) => row.state),
      ['returned'],
    );
  });

  it('should give up on storage that accepts the connection but never completes it, after 10 s', { timeout: 60_000 }, async () => {
    const account = await createAccount(service.store);
    const port = (stall.address() as { port: number }).port;
    const response = await render(service.harness, account.key, {
      markdown: '# Stalled',
      output: 'upload',
      upload_url: `https://storage.example.net:${port}/a.pdf`,
    });
    assert.equal(response.status, 424);
    assert.equal((await errorBody(response)).status, null);
    assert.ok(stalled.length >= 1);
  });

  it('should refuse a certificate that does not name the host, though the address is the checked one', async () => {
    const account = await createAccount(service.store);
    const response = await render(service.harness, account.key, {
      markdown: '# Impostor',
      output: 'upload',
      upload_url: `https://impostor.example.org:${storage.port}/bucket/ok.pdf?impostor`,
    });
    assert.equal(response.status, 424);
    assert.equal((await errorBody(response)).status, null);
    assert.equal(hitsFor('/bucket/ok.pdf?impostor').length, 0);
  });

  it('should refuse a name resolving to loopback without the test switch, before reserving and without connecting', async () => {
    const account = await createAccount(noLoopback.store);
    for (const url of [
      `https://sentinel.example.net:${sentinel.port}/ok.pdf?${SECRET}`,
      `https://127.0.0.1:${sentinel.port}/bucket/ok.pdf`,
      `https://private.example.net/ok.pdf?${SECRET}`,
    ]) {
      const response = await render(noLoopback.harness, account.key, { markdown: '# No', output: 'upload', upload_url: url });
      assert.equal(response.status, 400, url);
      const error = await errorBody(response);
      assert.deepEqual([error.code, error.reason], ['invalid_request', 'invalid_upload_url']);
      assert.doesNotMatch(JSON.stringify(error), /sentinel\.example|private\.example|127\.0|0ddba11/);
    }
    assert.equal(sentinel.connections, 0);
    assert.deepEqual(reservations(noLoopback.harness, account.id), []);
  });

  it('should answer 503 quota_unavailable when the address check cannot run, reserving nothing', async () => {
    const account = await createAccount(service.store);
    const response = await render(service.harness, account.key, {
      markdown: '# DNS',
      output: 'upload',
      upload_url: `https://broken.example.net/a.pdf?${SECRET}`,
    });
    assert.equal(response.status, 503);
    assert.equal((await errorBody(response)).code, 'quota_unavailable');
    assert.deepEqual(reservations(service.harness, account.id), []);
  });

  it('should answer upload requests 503 render_unavailable where upload is off, and still render pdf', async () => {
    const account = await createAccount(uploadOff.store);
    const upload = await render(uploadOff.harness, account.key, { markdown: '# Off', output: 'upload', upload_url: `${base}/ok.pdf?off` });
    assert.equal(upload.status, 503);
    assert.equal((await errorBody(upload)).code, 'render_unavailable');
    assert.equal(hitsFor('/bucket/ok.pdf?off').length, 0);
    const pdf = await render(uploadOff.harness, account.key, { markdown: '# Off', output: 'pdf' });
    assert.equal(pdf.status, 200);
    assert.deepEqual(
      reservations(uploadOff.harness, account.id).map((row) => row.state),
      ['charged'],
    );
  });

  it('should re-upload a replay to a fresh URL for free, and keep the original charge when a replay upload fails', async () => {
    const account = await createAccount(service.store);
    const body = (url: string) => ({ markdown: '# Replayed', output: 'upload', upload_url: url });
    const key = { 'Idempotency-Key': 'upload-replay-1' };
    const first = await render(service.harness, account.key, body(`${base}/ok.pdf?replay=1`), key);
    assert.equal(first.status, 200);
    const firstReceipt = (await first.json()) as { sha256: string };

    const again = await render(service.harness, account.key, body(`${base}/ok.pdf?replay=2`), key);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('x-service-replay'), 'true');
    assert.equal(((await again.json()) as { sha256: string }).sha256, firstReceipt.sha256);
    assert.deepEqual(hitsFor('/bucket/ok.pdf?replay=2')[0]!.body, hitsFor('/bucket/ok.pdf?replay=1')[0]!.body);

    const failed = await render(service.harness, account.key, body(`${base}/forbidden.pdf?replay=3`), key);
    assert.equal(failed.status, 424);
    assert.equal((await errorBody(failed)).status, 403);
    assert.deepEqual(
      reservations(service.harness, account.id).map((row) => row.state),
      ['charged'],
    );
    const report = (await (await usage(service.harness, account.key)).json()) as { credits_used: number };
    assert.equal(report.credits_used, 1);
  });

  it('should never log or store an upload URL', async () => {
    const account = await createAccount(service.store);
    await (await render(service.harness, account.key, { markdown: '# Log', output: 'upload', upload_url: `${base}/forbidden.pdf?${SECRET}` })).arrayBuffer();
    for (const child of [service, noLoopback, uploadOff]) {
      assert.doesNotMatch(child.stderr(), /0ddba11|storage\.example|private\.example|broken\.example|bucket/);
    }
    const { readFileSync, readdirSync } = await import('node:fs');
    const { dirname, join } = await import('node:path');
    const folder = dirname(service.dbFile);
    for (const file of readdirSync(folder)) assert.ok(!readFileSync(join(folder, file)).includes('0ddba11'), file);
  });
});
