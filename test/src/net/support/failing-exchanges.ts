/**
 * Run inside a fresh network namespace (fresh-netns.ts): exchange() to each address whose
 * connect() fails at once, under a host name as remote resources and uploads use it, a GET over
 * http and a PUT over https each; how each ended, and anything that escaped as an uncaught
 * exception or unhandled rejection instead.
 */
import { exchange, ExchangeError } from '#engine/resources/remote/pinned-exchange.js';
import { FAILING_ADDRESSES } from './fresh-netns.js';

export interface ExchangeOutcome {
  /** `<method> <scheme> <errno the address fails with>` */
  target: string;
  /** `ExchangeError <failure>: <message>`, or the error's name and message, or `answered`. */
  ended: string;
}

export interface FailingExchanges {
  outcomes: ExchangeOutcome[];
  escaped: string[];
}

export async function failingExchanges(): Promise<FailingExchanges> {
  const escaped: string[] = [];
  const record = (error: unknown) => void escaped.push(String(error));
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
  const outcomes: ExchangeOutcome[] = [];
  for (const [errno, address] of Object.entries(FAILING_ADDRESSES)) {
    for (const [method, scheme] of [
      ['GET', 'http'],
      ['PUT', 'https'],
    ] as const) {
      outcomes.push({ target: `${method} ${scheme} ${errno}`, ended: await ending(method, `${scheme}://files.example.com/a.png`, address) });
    }
  }
  // An error emitted after its exchange had settled would arrive about now.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { outcomes, escaped };
}

async function ending(method: 'GET' | 'PUT', url: string, address: string): Promise<string> {
  try {
    await exchange(
      { url: new URL(url), address },
      {
        method,
        headers: {},
        ...(method === 'PUT' && { body: new Uint8Array(16) }),
        connectTimeoutMs: 5_000,
        timeoutMs: 5_000,
        maxBodyBytes: 1_000,
      },
    );
    return 'answered';
  } catch (error) {
    if (error instanceof ExchangeError) return `ExchangeError ${error.failure}: ${error.message}`;
    return String(error);
  }
}
