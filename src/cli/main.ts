/**
 * The `quire` command. Each sub-command lives in its own module and is loaded only when asked
 * for, so `quire render` never pays for the service's start-up.
 */
import { CliAnswer, CliError } from './cli-error.js';

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

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h') throw new CliAnswer((await import('./usage.js')).OVERVIEW);
  if (name === '--version' || name === '-v' || name === 'version') throw new CliAnswer((await import('./version.js')).versionLine());
  // `quire help render` is `quire render --help`.
  if (name === 'help') return args[0] === undefined ? main([]) : main([args[0], '--help']);
  const load = COMMANDS[name];
  if (!load) {
    const hint = name.startsWith('-') ? `unknown option ${name}` : `unknown command "${name}"`;
    throw new CliError(`${hint} (see quire --help)`);
  }
  await (await load())(args);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof CliAnswer) {
    process.stdout.write(error.text);
    return;
  }
  process.stderr.write(`quire: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof CliError ? error.exitCode : 1;
  // A failed command has nothing left to do: should a handle it opened still hold the event loop
  // (a socket, a worker thread), a supervisor would see it running. The commands close what they
  // opened; this is the backstop, and does not delay an exit that happens anyway (unref).
  setTimeout(() => process.exit(), FAILED_EXIT_GRACE_MS).unref();
});
