/**
 * What the suites of several `quire serve` instances share: renders held in flight by an image on
 * a loopback server the test controls (the instances run with QUIRE_NET_ALLOW_LOOPBACK=1, and
 * the worker waits on the image until the test lets it go), renders sent and their answers
 * tallied, and bounded waits.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import type { SuiteAccount } from '../../hostile/support/accounts.js';
import type { ServiceProcess } from '../../hostile/support/service-process.js';
import { pngFile } from '../../support/png-file.js';

const PNG = pngFile(1, 1, 2, deflateSync(Buffer.from([0, 200, 40, 40])));

export interface Answer {
  status: number;
  code: string | undefined;
  replay: boolean;
}

/** Image requests held open until `release()`; each request is counted as it arrives. */
export class HeldImages {
  private held: ServerResponse[] = [];
  private holding = true;
  arrived = 0;
  private readonly server = createServer((_request: IncomingMessage, response: ServerResponse) => {
    this.arrived += 1;
    if (this.holding) this.held.push(response);
    else this.send(response);
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  url(name: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/${name}.png`;
  }

  release(): void {
    this.holding = false;
    for (const response of this.held.splice(0)) this.send(response);
  }

  hold(): void {
    this.holding = true;
    this.arrived = 0;
  }

  async close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private send(response: ServerResponse): void {
    response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length }).end(PNG);
  }
}

export async function render(instance: ServiceProcess, account: SuiteAccount, markdown: string, key?: string): Promise<Answer> {
  const response = await fetch(`${instance.url}/v1/render`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'text/markdown', ...(key && { 'Idempotency-Key': key }) },
    body: markdown,
  });
  const body = Buffer.from(await response.arrayBuffer());
  const code = response.status === 200 ? undefined : (JSON.parse(body.toString('utf8')) as { code: string }).code;
  return { status: response.status, code, replay: response.headers.get('x-service-replay') === 'true' };
}

export function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    const name = answer.status === 200 ? (answer.replay ? 'replayed' : 'delivered') : `${answer.status} ${answer.code}`;
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

export async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}
