/**
 * `quire mcp [--db PATH]`: the MCP server over stdio for one account, whose API key comes from
 * QUIRE_API_KEY. Renders go through the service's render flow against the same database, so
 * quotas, idempotency, requests per minute, concurrent renders and the usage report are shared
 * with the HTTP service. Logs go to stderr; stdout carries MCP.
 */
import { authenticate } from '../admission/authenticate.js';
import { createServiceCore } from '../http/service-core.js';
import { stderrLog } from '../log.js';
import { createMcpServer } from '../mcp/mcp-server.js';
import { BoundedStdioTransport } from '../mcp/stdio-transport.js';
import { ServiceError } from '../service-error.js';
import { keepLeases } from '../store/lease-keeper.js';
import { CliError } from './cli-error.js';
import { parseFlags } from './parse-flags.js';
import { MCP_USAGE } from './usage.js';
import { openServiceParts } from './service-parts.js';

export async function mcpCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(args, { db: { type: 'string' } }, MCP_USAGE);
  if (positionals.length > 0) throw new CliError(`unexpected argument "${positionals[0]}" (see quire mcp --help)`);
  const key = process.env.QUIRE_API_KEY;
  if (!key) throw new CliError('set QUIRE_API_KEY to an API key of the account the MCP server renders for');
  const authorization = `Bearer ${key}`;

  const log = stderrLog;
  const parts = await openServiceParts(values.db, log);
  const { store, pool } = parts;
  const leases = keepLeases(store, parts.holder, log);
  const stopping = async () => {
    await pool.close(0);
    await leases.stop();
    await store.close();
  };
  try {
    // A wrong key is a start-up error, not a refusal on every call; later revocation is still checked per call.
    await authenticate(store, authorization);
  } catch (error) {
    await stopping();
    throw error instanceof ServiceError ? new CliError(`QUIRE_API_KEY: ${error.message}`, 1) : error;
  }
  await pool.started();
  const core = createServiceCore(parts);
  const server = createMcpServer({ core, authorization, stdio: true });
  // Each line is held to the deployment's body ceiling, as the HTTP door holds each body. The
  // transport closes itself when the client closes standard input, which it reads itself:
  // process.stdin, a second reader of the same pipe, is never opened.
  const transport = new BoundedStdioTransport(parts.config.maxBodyBytes);
  transport.onclose = () => void stopping();
  await server.connect(transport);
  log({ event: 'mcp_stdio_ready', db: parts.database, workers: parts.config.workers });
}
