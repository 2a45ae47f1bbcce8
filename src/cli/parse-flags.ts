import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type Parsed<T extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>>;

/** node:util parseArgs, strict, with its complaints turned into usage errors. */
export function parseFlags<T extends Options>(args: string[], options: T): Parsed<T> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
}

export function parseBoolean(flag: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new CliError(`${flag} takes true or false`);
}

/** The one positional argument a command takes, e.g. ACCOUNT. */
export function onePositional(positionals: string[], name: string): string {
  if (positionals.length !== 1) throw new CliError(`expected ${name}`);
  return positionals[0]!;
}
