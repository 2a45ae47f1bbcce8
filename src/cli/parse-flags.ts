import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliAnswer, CliError } from './cli-error.js';
import type { Usage } from './usage.js';
import { versionLine } from './version.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type Parsed<T extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>>;

/**
 * node:util parseArgs, strict, after `--help` and `--version` (which any command answers, whatever
 * else is given), with its complaints turned into one-line usage errors that point at the help.
 */
export function parseFlags<T extends Options>(args: string[], options: T, usage: Usage): Parsed<T> {
  answerHelpOrVersion(args, usage);
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(`${flagProblem(error)} (see quire ${usage.command} --help)`);
  }
}

/**
 * `-h`/`--help` prints the command's help, `-v`/`--version` the version (both before anything is
 * checked or opened). Arguments after `--` are operands, never flags.
 */
export function answerHelpOrVersion(args: readonly string[], usage: Usage): void {
  for (const arg of args) {
    if (arg === '--') return;
    if (arg === '--help' || arg === '-h') throw new CliAnswer(usage.help);
    if (arg === '--version' || arg === '-v') throw new CliAnswer(versionLine());
  }
}

/** parseArgs' message in a line of the command line's own words: `unknown option --x`, `--port needs a value`. */
function flagProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]}`;
  const missing = /^Option '(?:-\w, )?(-[^' ]+) <value>' argument missing/.exec(message);
  if (missing) return `${missing[1]} needs a value`;
  const ambiguous = /^Option '(?:-\w, )?(-[^' ]+)' argument is ambiguous/.exec(message);
  if (ambiguous) return `${ambiguous[1]} needs a value (one starting with - is written ${ambiguous[1]}=-…)`;
  const boolean = /^Option '(?:-\w, )?(-[^' ]+)' does not take an argument/.exec(message);
  if (boolean) return `${boolean[1]} takes no value`;
  return message.split('\n')[0]!;
}

export function parseBoolean(flag: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new CliError(`${flag} takes true or false`);
}

/** The one positional argument a command takes, e.g. ACCOUNT. */
export function onePositional(positionals: string[], name: string, usage: Usage): string {
  if (positionals.length !== 1)
    throw new CliError(`expected ${name}${positionals.length > 1 ? `, not ${positionals.length} arguments` : ''} (see quire ${usage.command} --help)`);
  return positionals[0]!;
}
