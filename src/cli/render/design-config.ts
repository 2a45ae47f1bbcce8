/**
 * Document settings from the command line: a `quire.yaml` beside the input (or the file named by
 * `--config`), then `--set key=value` over it; the document's own front matter overrides both.
 * They reach the engine as its `design` option, the same keys as front matter.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FRONT_MATTER_KEYS, unknownKeyWarnings } from '@quire/engine';
import { CliError } from '../cli-error.js';
import { decodeInput } from './decode-input.js';

export type DesignRecord = Record<string, unknown>;

/** The file Quire reads settings from when it sits in the input's folder. */
export const CONFIG_FILE = 'quire.yaml';

const SET_KEY = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)?$/;

/**
 * One `--set key=value` into `sets`. The value stays text (`{page} of {pages}` is a template, not
 * YAML); the engine reads `true`, `12`, `[6in, 9in]` from text. `footer.right=…` sets one slot.
 */
export function addSetting(sets: DesignRecord, assignment: string): void {
  const equals = assignment.indexOf('=');
  const key = equals === -1 ? '' : assignment.slice(0, equals).trim();
  if (!SET_KEY.test(key))
    throw new CliError(`--set takes key=value (such as --set paper=letter or --set footer.right="{page}"), not ${JSON.stringify(assignment)}`);
  const value = assignment.slice(equals + 1);
  const [name, slot] = key.split('.') as [string, string | undefined];
  if (slot === undefined) {
    sets[name] = value;
    return;
  }
  const current = sets[name];
  sets[name] = { ...(isRecord(current) ? current : {}), [slot]: value };
}

/**
 * The settings for one input: the config file's, then the `--set` ones over them. Keys Quire does
 * not read are told to `warn` (with their lines in the file, and the key meant when one is close)
 * and left out, as the engine leaves out those of front matter: the render goes on.
 */
export async function designFor(input: string, config: string | null, sets: DesignRecord, warn: (message: string) => void): Promise<DesignRecord> {
  const file = config ?? besideInput(input);
  for (const warning of unknownKeyWarnings(sets, '--set')) warn(warning);
  return merged(file === null ? {} : await readConfig(file, warn), known(sets));
}

function known(record: DesignRecord): DesignRecord {
  return Object.fromEntries(Object.entries(record).filter(([key]) => FRONT_MATTER_KEYS.includes(key)));
}

function besideInput(input: string): string | null {
  const file = path.join(input === '-' ? process.cwd() : path.dirname(path.resolve(input)), CONFIG_FILE);
  return existsSync(file) ? file : null;
}

async function readConfig(file: string, warn: (message: string) => void): Promise<DesignRecord> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 1);
  }
  const text = decodeInput(bytes, file, null);
  // Loaded only for a settings file, as the engine loads it only for front matter.
  const yaml = await import('yaml');
  let data: unknown;
  try {
    data = yaml.parse(text, { maxAliasCount: 100, prettyErrors: false });
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]!;
    if (!(error instanceof yaml.YAMLParseError)) throw new CliError(`${file}: ${message}`, 1);
    const { line, column } = placeOf(text, error.pos[0]);
    throw new CliError(`${file}:${line}:${column}: ${message.replace(/ at line \d+, column \d+:?$/, '')}`, 1);
  }
  if (data === null || data === undefined) return {};
  if (!isRecord(data)) throw new CliError(`${file}: settings must be key: value pairs, as in front matter`, 1);
  const lineOf = (key: string) => {
    const at = text.search(new RegExp(`^["']?${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']?[ \t]*:`, 'm'));
    return at < 0 ? undefined : placeOf(text, at).line;
  };
  for (const warning of unknownKeyWarnings(data, file, lineOf)) warn(warning.replace(/^(.*?), line (\d+): /, '$1:$2: '));
  return known(data);
}

/** The 1-based line and column of `offset` in `text`. */
function placeOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: before.length - lineStart + 1 };
}

/** `over` on `base`; a map set in both (`footer`) merges slot by slot. */
function merged(base: DesignRecord, over: DesignRecord): DesignRecord {
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const below = out[key];
    out[key] = isRecord(below) && isRecord(value) ? { ...below, ...value } : value;
  }
  return out;
}

function isRecord(value: unknown): value is DesignRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}
