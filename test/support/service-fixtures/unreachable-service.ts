/**
 * Run inside a fresh network namespace (test/src/net/support/fresh-netns.ts): the real service as a
 * child process, its DNS a stub answering public addresses whose connect() fails at once, asked
 * over loopback for renders that need those hosts, then whether it still answers. Returns what
 * came back; a request the service could not answer is recorded as such, never thrown.
 */
import { startChildService } from '../../src/net/support/child-service.js';
import { startDnsStub } from '../../src/net/support/dns-stub.js';
import { FAILING_ADDRESSES } from '../../src/net/support/fresh-netns.js';
import { createAccount, render, reservations, type ReservationRow } from '../service-harness.js';

export interface Answer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** JSON bodies parsed; a PDF as Base64. */
  body: unknown;
}

export interface UnreachableService {
  /** Lenient: an https and an http image on an unrouted host, an https one behind a prohibit route. */
  lenient: Answer | string;
  /** Strict: the same document. */
  strict: Answer | string;
  /** An upload to storage on an unrouted host. */
  upload: Answer | string;
  healthz: Answer | string;
  /** A render needing no network, afterwards. */
  after: Answer | string;
  reservations: ReservationRow[];
  /** The service's exit code or signal, when it exited before being told to. */
  exited: string | null;
  /** What the service logged, to show when a check fails. */
  log: string;
}

const IMAGES_MARKDOWN = [
  '![https unrouted](https://img.example.com/a.png)',
  '![http unrouted](http://img.example.com/b.png)',
  '![https prohibited](https://denied.example.com/c.png)',
].join('\n\n');

export async function observeUnreachableService(): Promise<UnreachableService> {
  const dns = await startDnsStub({
    'img.example.com': [FAILING_ADDRESSES.ENETUNREACH],
    'denied.example.com': [FAILING_ADDRESSES.EACCES],
    'storage.example.net': [FAILING_ADDRESSES.ENETUNREACH],
  });
  const service = await startChildService({ QUIRE_NET_DNS_SERVERS: dns.server });
  try {
    const account = await createAccount(service.store);
    const ask = (body: unknown) => answer(render(service.harness, account.key, body));
    const lenient = await ask({ markdown: IMAGES_MARKDOWN, resources: 'lenient' });
    const strict = await ask({ markdown: IMAGES_MARKDOWN });
    const upload = await ask({ markdown: '# Upload', output: 'upload', upload_url: 'https://storage.example.net/bucket/doc.pdf?X-Sig=1' });
    const healthz = await answer(fetch(`${service.url}/healthz`));
    const after = await ask({ markdown: '# Still here', output: 'json' });
    const rows = reservations(service.harness, account.id);
    return { lenient, strict, upload, healthz, after, reservations: rows, exited: service.exited(), log: service.stderr() };
  } finally {
    await service.close();
    await dns.close();
  }
}

async function answer(request: Promise<Response>): Promise<Answer | string> {
  try {
    const response = await request;
    const bytes = Buffer.from(await response.arrayBuffer());
    const type = response.headers.get('content-type') ?? '';
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    return {
      status: response.status,
      headers,
      body: type.startsWith('application/json') ? JSON.parse(bytes.toString('utf8')) : bytes.toString('base64'),
    };
  } catch (error) {
    return `no answer: ${String((error as Error).cause ?? error)}`;
  }
}
