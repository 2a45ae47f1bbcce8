/**
 * The service benchmark's clients, in a process of their own (so the service's main thread
 * shares nothing with them but the machine), on Node's own HTTP client with kept-alive
 * connections — lighter than `fetch`, as a load generator should be:
 *
 *   node dist/bench/service-client.js PLAN.json    prints JSON: one sample per request
 *
 * PLAN.json: { url, keys, bodies, clients, warmUpRounds, durationMs }. Each client sends one
 * request at a time, the documents in turn; the first rounds warm up and are not counted.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface ClientPlan {
  url: string;
  keys: string[];
  bodies: string[];
  clients: number;
  warmUpRounds: number;
  durationMs: number;
}

export interface ClientSample {
  doc: number;
  ok: boolean;
  ms: number;
  serverTiming: string;
}

function run(plan: ClientPlan): Promise<{ samples: ClientSample[]; elapsedMs: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: plan.clients });
  const target = new URL(plan.url);
  let sent = 0;
  const send = (doc: number) =>
    new Promise<ClientSample>((resolve, reject) => {
      const started = performance.now();
      const body = plan.bodies[doc]!;
      const request = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: {
            Authorization: `Bearer ${plan.keys[sent++ % plan.keys.length]}`,
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
          },
        },
        (response) => {
          response.on('data', () => undefined);
          response.on('end', () =>
            resolve({ doc, ok: response.statusCode === 200, ms: performance.now() - started, serverTiming: String(response.headers['server-timing'] ?? '') }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });

  return (async () => {
    const documents = plan.bodies.length;
    for (let round = 0; round < plan.warmUpRounds; round += 1) {
      await Promise.all(
        Array.from({ length: plan.clients }, async (_, client) => {
          for (let i = 0; i < documents; i += 1) await send((i + client) % documents);
        }),
      );
    }
    const samples: ClientSample[] = [];
    const started = performance.now();
    const deadline = started + plan.durationMs;
    await Promise.all(
      Array.from({ length: plan.clients }, async (_, client) => {
        for (let next = client; performance.now() < deadline; next += 1) samples.push(await send(next % documents));
      }),
    );
    const elapsedMs = performance.now() - started;
    agent.destroy();
    return { samples, elapsedMs };
  })();
}

const planFile = process.argv[2];
if (planFile) process.stdout.write(JSON.stringify(await run(JSON.parse(readFileSync(planFile, 'utf8')) as ClientPlan)));
