/**
 * Every door admits work the same way. One set of cases — rate, concurrency, documents left,
 * linked images without documents, the plan's page limit, a poster-sized page, the body ceiling,
 * what a refusal costs — run against each door of the real service over real sockets (and `quire
 * mcp`'s real process over stdio): POST /v1/render, MCP over HTTP, MCP over stdio, the editor's
 * preview and its download; once on a SQLite file and once on a PostgreSQL database, the two
 * stores every limit is kept in. A new door is one entry in DOORS.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MOST_PAGE_PIXELS } from '#engine/preview/preview.js';
import { defaultDeployment } from '../../../src/config/deployment.js';
import { accountBodyCeiling } from '../../../src/limits/body-ceiling.js';
import { effectiveLimits } from '../../../src/limits/plans.js';
import type { LimitOverrides, PlanId } from '../../../src/plan-terms.js';
import type { TokenKind } from '../../../src/store/store.js';
import { pngFile } from '../../support/png-file.js';
import { freshDatabase, type TestDatabase } from '../../support/postgres.js';
import { DEFAULT_NET_SETTINGS } from '../../../src/net/net-settings.js';
import { createAccount, reservations, startService, WallClock, type TestAccount, type TestService } from '../../support/service-harness.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));
const PNG = pngFile(1, 1, 2, deflateSync(Buffer.from([0, 200, 40, 40])));

/** What a door answered, whatever its wire: a document (PDF or pages), or a refusal's SPEC code. */
type Outcome =
  | { kind: 'rendered'; warnings: string[]; pagePixels: number[] }
  | { kind: 'refused'; code: string; limit: string | undefined; status: number | undefined };

interface Door {
  name: string;
  /** What one request through it spends before its body is read. */
  spends: { token: TokenKind; limit: 'requests_per_min' | 'previews_per_hour' };
  /** Whether a rendered document is charged (a preview never is). */
  charges: boolean;
  send(account: TestAccount, body: Record<string, unknown>): Promise<Outcome>;
}

let service: TestService;
const stdioClients = new Map<string, Client>();

async function fromHttp(response: Response): Promise<Outcome> {
  if (response.ok) {
    if (response.headers.get('content-type') === 'application/pdf') {
      await response.arrayBuffer();
      const failed = response.headers.get('x-service-resources-failed');
      return { kind: 'rendered', warnings: failed && !failed.startsWith('0/') ? [`resources failed ${failed}`] : [], pagePixels: [] };
    }
    const body = (await response.json()) as { pages: { png: string | null }[]; warnings: string[] };
    return { kind: 'rendered', warnings: body.warnings, pagePixels: body.pages.flatMap((page) => (page.png === null ? [] : [pngPixels(page.png)])) };
  }
  const body = (await response.json()) as { code: string; limit?: { name: string } };
  return { kind: 'refused', code: body.code, limit: body.limit?.name, status: response.status };
}

function fromTool(result: CallToolResult): Outcome {
  if (!result.isError) {
    const failed = result.structuredContent?.resources_failed as string | undefined;
    return { kind: 'rendered', warnings: failed && !failed.startsWith('0/') ? [`resources failed ${failed}`] : [], pagePixels: [] };
  }
  const body = result.structuredContent as { code: string; limit?: { name: string } };
  return { kind: 'refused', code: body.code, limit: body.limit?.name, status: undefined };
}

function pngPixels(base64: string): number {
  const bytes = Buffer.from(base64, 'base64');
  return bytes.readUInt32BE(16) * bytes.readUInt32BE(20);
}

function post(path: string, key: string, body: unknown): Promise<Response> {
  return fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });
}

const REQUESTS = { token: 'request', limit: 'requests_per_min' } as const;

const DOORS: Door[] = [
  { name: 'POST /v1/render', spends: REQUESTS, charges: true, send: async (account, body) => fromHttp(await post('/v1/render', account.key, body)) },
  {
    name: 'MCP over HTTP',
    spends: REQUESTS,
    charges: true,
    async send(account, body) {
      const response = await post('/mcp', account.key, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'render_markdown', arguments: body } });
      if (!response.ok) return fromHttp(response);
      return fromTool(((await response.json()) as { result: CallToolResult }).result);
    },
  },
  {
    name: 'MCP over stdio',
    spends: REQUESTS,
    charges: true,
    async send(account, body) {
      let client = stdioClients.get(account.key);
      if (!client) {
        client = new Client({ name: 'door-conformance', version: '1' });
        await client.connect(
          new StdioClientTransport({
            command: process.execPath,
            args: [MAIN, 'mcp', '--db', service.dbFile],
            env: {
              ...(process.env as Record<string, string>),
              QUIRE_API_KEY: account.key,
              QUIRE_WORKERS: '1',
              QUIRE_NET_ALLOW_LOOPBACK: '1',
              QUIRE_MASTER_KEY: '5a'.repeat(32),
            },
            stderr: 'ignore',
          }),
        );
        stdioClients.set(account.key, client);
      }
      return fromTool((await client.callTool({ name: 'render_markdown', arguments: body })) as CallToolResult);
    },
  },
  {
    name: 'POST /editor/preview',
    spends: { token: 'preview', limit: 'previews_per_hour' },
    charges: false,
    send: async (account, body) => fromHttp(await post('/editor/preview', account.key, body)),
  },
  {
    name: 'POST /editor/download',
    spends: REQUESTS,
    charges: true,
    send: async (account, body) => fromHttp(await post('/editor/download', account.key, body)),
  },
];

/** An image server on loopback that counts what it is asked for. */
let images: Server;
let imageRequests = 0;
const imageUrl = () => `http://127.0.0.1:${(images.address() as AddressInfo).port}/dot.png`;

async function account(plan: PlanId, overrides: LimitOverrides = {}): Promise<TestAccount> {
  return createAccount(service.store, { plan, overrides });
}

async function creditsUsed(key: string): Promise<number> {
  const response = await fetch(`${service.url}/v1/usage`, { headers: { Authorization: `Bearer ${key}` } });
  return ((await response.json()) as { credits_used: number }).credits_used;
}

function assertRefused(outcome: Outcome, code: string, limit?: string): void {
  assert.equal(outcome.kind, 'refused', JSON.stringify(outcome));
  if (outcome.kind !== 'refused') return;
  assert.equal(outcome.code, code, JSON.stringify(outcome));
  if (limit !== undefined) assert.equal(outcome.limit, limit, JSON.stringify(outcome));
}

const THREE_PAGES = Array.from({ length: 3 }, (_, i) => `# Part ${i + 1}\n\n${'Words to fill a page. '.repeat(400)}`).join('\n\n');

/** The account's reservation rows, in the store the service keeps them in. */
let reservationStates: (accountId: string) => Promise<string[]>;

before(async () => {
  images = createServer((_request, response) => {
    imageRequests += 1;
    response.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
});
after(() => new Promise((resolve) => images.close(resolve)));

for (const kind of ['SQLite', 'PostgreSQL'] as const)
  describe(`every door admits work the same way (${kind})`, () => {
    let database: TestDatabase | undefined;
    before(async () => {
      database = kind === 'PostgreSQL' ? await freshDatabase('doors') : undefined;
      // Linked images come from this test's own loopback server, which the service refuses unless told.
      // The clock is the time of day, which `quire mcp`'s process reads: slots held here are held
      // there, and leases taken here are not expired there.
      service = await startService({
        clock: new WallClock(),
        net: { ...DEFAULT_NET_SETTINGS, allowLoopback: true },
        ...(database && { postgres: database.url }),
      });
      reservationStates = database
        ? async (accountId) =>
            (
              await database!.query<{ state: string }>(
                'SELECT r.state FROM reservations r JOIN periods p ON p.id = r.period_id WHERE p.account_id = $1 ORDER BY r.id',
                [accountId],
              )
            ).map((row) => row.state)
        : async (accountId) => reservations(service, accountId).map((row) => row.state);
    });
    after(async () => {
      for (const client of stdioClients.values()) await client.close();
      stdioClients.clear();
      await service.close();
      await database?.drop();
    });

    for (const door of DOORS) {
      describe(door.name, () => {
        it(`should count each request against ${door.spends.limit} before reading it, and refuse past it with 429`, async () => {
          const limited = await account('starter', { requests_per_min: 2, previews_per_hour: 2 });
          for (let i = 0; i < 2; i++) assert.equal((await door.send(limited, { markdown: `# ${i}` })).kind, 'rendered');
          assertRefused(await door.send(limited, { markdown: '# Third' }), 'rate_limited', door.spends.limit);
        });

        it('should refuse with 429 naming concurrency while every render slot of the account is held', async () => {
          const busy = await account('free', { concurrency: 1, requests_per_min: 100 });
          const held = await service.store.takeTokens(busy.id, 'render', 1, 1);
          assert.ok(held.granted);
          try {
            assertRefused(await door.send(busy, { markdown: '# Waiting' }), 'rate_limited', 'concurrency');
          } finally {
            await service.store.giveBackTokens(busy.id, 'render', held.slots);
          }
          assert.equal((await door.send(busy, { markdown: '# Now' })).kind, 'rendered');
        });

        it(
          door.charges
            ? 'should refuse 402 quota_exhausted when no document is left, loading nothing'
            : 'should draw without documents left, loading no linked image',
          async () => {
            const spent = await account('free', { documents: 0, requests_per_min: 100 });
            const before = imageRequests;
            const outcome = await door.send(spent, { markdown: `# Linked\n\n![dot](${imageUrl()})`, resources: 'lenient' });
            if (door.charges) assertRefused(outcome, 'quota_exhausted');
            else {
              assert.equal(outcome.kind, 'rendered');
              assert.match(outcome.kind === 'rendered' ? outcome.warnings.join('\n') : '', /image 1 .*could not be loaded/);
            }
            assert.equal(imageRequests, before, 'no linked image was loaded');
          },
        );

        it('should load linked images for an account with documents left', async () => {
          const paying = await account('free', { requests_per_min: 100 });
          const before = imageRequests;
          const outcome = await door.send(paying, { markdown: `# Linked\n\n![dot](${imageUrl()})` });
          assert.equal(outcome.kind, 'rendered', JSON.stringify(outcome));
          assert.equal(imageRequests, before + 1);
        });

        it("should stop at the plan's page limit with 422 too_many_pages, charging nothing", async () => {
          const short = await account('free', { pages_max: 1, requests_per_min: 100 });
          assertRefused(await door.send(short, { markdown: THREE_PAGES }), 'too_many_pages', 'pages_max');
          assert.equal(await creditsUsed(short.key), 0);
        });

        it('should draw a 200-inch page within a raster budget known before drawing', async () => {
          const poster = await account('free', { requests_per_min: 100 });
          const outcome = await door.send(poster, { markdown: '---\npaper: [200in, 200in]\n---\n\n# Poster' });
          assert.equal(outcome.kind, 'rendered', JSON.stringify(outcome));
          if (outcome.kind === 'rendered') for (const pixels of outcome.pagePixels) assert.ok(pixels <= MOST_PAGE_PIXELS * 1.01, `${pixels} pixels`);
          if (!door.charges) assert.equal(outcome.kind === 'rendered' && outcome.pagePixels.length, 1);
        });

        it("should refuse a body over the account's ceiling with 413", async () => {
          const free = await account('free', { requests_per_min: 100 });
          const ceiling = accountBodyCeiling('free', effectiveLimits('free', {}), defaultDeployment().maxBodyBytes);
          assertRefused(await door.send(free, { markdown: 'x'.repeat(ceiling.bytes + 1) }), 'payload_too_large');
        });

        it(`should charge nothing for a refusal on the document as sent, and count it against ${door.spends.limit}`, async () => {
          const free = await account('free', { requests_per_min: 100, previews_per_hour: 100 });
          assertRefused(await door.send(free, { markdown: 'x'.repeat(600 * 1024) }), 'payload_too_large', 'markdown_kb');
          assert.equal(await creditsUsed(free.key), 0);
          assert.deepEqual(await reservationStates(free.id), []);
          assert.equal(await service.store.tokensHeld(free.id, door.spends.token, 100), 1);
        });
      });
    }
  });
