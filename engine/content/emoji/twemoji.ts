import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Twemoji's icons are drawn on a 36×36 grid. */
export const TWEMOJI_GRID = 36;

interface IconSet {
  icons: Record<string, { body: string; width?: number; height?: number; left?: number; top?: number }>;
  aliases?: Record<string, { parent: string }>;
}

interface Twemoji {
  /** Code points in hex without VS16, joined by `-` (as in `1f468-200d-1f469`) → icon name. */
  chars: Map<string, string>;
  set: IconSet;
}

let twemoji: Twemoji | null = null;

/**
 * The Twemoji set (@iconify-json/twemoji), read on first use and kept for the process: 10 MB of
 * JSON, ~85 ms of CPU to read, ~10 MB of heap kept. Synchronous because the builder asks for
 * emoji one text run at a time.
 */
function load(): Twemoji {
  if (twemoji) return twemoji;
  const require = createRequire(import.meta.url);
  const read = (file: string): unknown => JSON.parse(readFileSync(require.resolve(`@iconify-json/twemoji/${file}`), 'utf8'));
  twemoji = { chars: new Map(Object.entries(read('chars.json') as Record<string, string>)), set: read('icons.json') as IconSet };
  return twemoji;
}

/** The set's key for a sequence: code points in hex, at least four digits, VS16 left out. */
export function twemojiKey(sequence: string): string {
  return [...sequence]
    .map((char) => char.codePointAt(0)!)
    .filter((code) => code !== 0xfe0f)
    .map((code) => code.toString(16).padStart(4, '0'))
    .join('-');
}

/** The emoji with the set's key as a standalone 36×36 SVG (non-square icons centred), or null when the set lacks it. */
export function twemojiSvg(key: string): string | null {
  const { chars, set } = load();
  let name = chars.get(key);
  for (let hops = 0; name && !set.icons[name] && hops < 4; hops++) name = set.aliases?.[name]?.parent;
  const icon = name ? set.icons[name] : undefined;
  if (!icon) return null;
  const x = (icon.left ?? 0) - (TWEMOJI_GRID - (icon.width ?? TWEMOJI_GRID)) / 2;
  const y = (icon.top ?? 0) - (TWEMOJI_GRID - (icon.height ?? TWEMOJI_GRID)) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${x} ${y} ${TWEMOJI_GRID} ${TWEMOJI_GRID}">${icon.body}</svg>`;
}
