/**
 * The `quire` command. Each sub-command lives in its own module and is loaded only when asked
 * for, so `quire render` never pays for the service's start-up.
 */
import { CliError } from './cli-error.js';

type Command = (args: string[]) => Promise<void>;

/** How long a failed command may take to finish closing before the process leaves regardless. */
const FAILED_EXIT_GRACE_MS = 2_000;

const COMMANDS: Record<string, () => Promise<Command>> = {
  render: async () => (await import('./render-command.js')).renderCommand,
  serve: async () => (await import('./serve-command.js')).serveCommand,
  mcp: async () => (await import('./mcp-command.js')).mcpCommand,
  account: async () => (await import('./account-command.js')).accountCommand,
  key: async () => (await import('./key-command.js')).keyCommand,
  grant: async () => (await import('./grant-command.js')).grantCommand,
  cert: async () => (await import('./cert-command.js')).certCommand,
};

const USAGE = `usage: quire <command> [options]

commands:
  render <file.md | -> [-o out.pdf]   render Markdown to PDF
  serve [--port N] [--host H] [--db PATH]
                                      run the HTTP service (PORT, default 8080; QUIRE_DB, default data/quire.db;
                                      QUIRE_OPERATOR_PORT puts /metrics, /healthz, /readyz on a port of their own)
  mcp [--db PATH]                     run the MCP server on stdio for the account of QUIRE_API_KEY
  account create --email E [--plan free|starter|pro|scale] [--unverified] [--db PATH]
                                      create an account and its first API key
  account set ACCOUNT [--plan P] [--blocked true|false] [--email-verified true|false]
              [--limit NAME=VALUE …] [--db PATH]
                                      change an account (a plan change starts a new period)
  key create ACCOUNT [--name N] [--db PATH]
                                      issue an API key (shown once)
  key revoke KEY_ID [--db PATH]       revoke an API key
  grant ACCOUNT --documents N [--db PATH]
                                      add documents to the current period
  cert add ACCOUNT --name N (--p12 FILE --password P | --key FILE --cert FILE [--chain FILE] [--password P]) [--db PATH]
                                      store a certificate for the account's seals (encrypted at rest)
  cert delete ACCOUNT --name N [--db PATH]
                                      delete a stored certificate
  cert list ACCOUNT [--db PATH]       list the account's stored certificates
`;

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const load = COMMANDS[name];
  if (!load) throw new CliError(`unknown command "${name}" (try: quire --help)`);
  await (await load())(args);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`quire: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof CliError ? error.exitCode : 1;
  // A failed command has nothing left to do: should a handle it opened still hold the event loop
  // (a socket, a worker thread), a supervisor would see it running. The commands close what they
  // opened; this is the backstop, and does not delay an exit that happens anyway (unref).
  setTimeout(() => process.exit(), FAILED_EXIT_GRACE_MS).unref();
});
