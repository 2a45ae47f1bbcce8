/**
 * `--version`: the package's version, read from its package.json at the root of the repository
 * (or of the single executable's stage, which carries it). Found from this module's place, which
 * the bundle keeps (scripts/bundle.mjs), and read only when asked.
 */
import { readFileSync } from 'node:fs';

export function packageVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The line `--version` prints. */
export function versionLine(): string {
  return `quire ${packageVersion()}\n`;
}
