/**
 * Document settings from the command line: a `quire.yaml` beside the input (or the file named by
 * `--config`), then `--set key=value` over it; the document's own front matter overrides both.
 * They reach the engine as its `design` option, the same keys as front matter.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CliError } from '../cli-error.js';

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

/** The settings for one input: the config file's, then the `--set` ones over them. */
export async function designFor(input: string, config: string | null, sets: DesignRecord): Promise<DesignRecord> {
  const file = config ?? besideInput(input);
  return merged(file === null ? {} : await readConfig(file), sets);
}

function besideInput(input: string): string | null {
  const file = path.join(input === '-' ? process.cwd() : path.dirname(path.resolve(input)), CONFIG_FILE);
  return existsSync(file) ? file : null;
}

async function readConfig(file: string): Promise<DesignRecord> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 1);
  }
  // Loaded only for a settings file, as the engine loads it only for front matter.
  const yaml = await import('yaml');
  let data: unknown;
  try {
    data = yaml.parse(text, { maxAliasCount: 100, prettyErrors: false });
  } catch (error) {
    throw new CliError(`${file}: ${(error as Error).message.split('\n')[0]}`, 1);
  }
  if (data === null || data === undefined) return {};
  if (!isRecord(data)) throw new CliError(`${file}: settings must be key: value pairs, as in front matter`, 1);
  return data;
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
