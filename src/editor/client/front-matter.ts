/**
 * Reads and writes top-level `key: value` lines of the document's YAML front matter, the way the
 * settings drawer changes the document: the text stays the person's, only the one line changes.
 */
const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^(---|\.\.\.)[ \t]*$/m;

interface Block {
  /** Offsets of the YAML between the fences. */
  from: number;
  to: number;
}

function frontMatterBlock(text: string): Block | null {
  const opening = OPENING.exec(text);
  if (!opening) return null;
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return null;
  return { from: opening[0].length, to: opening[0].length + closing.index };
}

function keyLine(key: string): RegExp {
  return new RegExp(`^${key}:[ \\t]*(.*)$`, 'm');
}

export function readSetting(text: string, key: string): string | null {
  const block = frontMatterBlock(text);
  if (!block) return null;
  const match = keyLine(key).exec(text.slice(block.from, block.to));
  return match ? unquote(match[1]!.trim()) : null;
}

/** The change to make (offsets in `text`) so that `key` has `value`; null `value` removes the key. */
export function settingChange(text: string, key: string, value: string | null): { from: number; to: number; insert: string } | null {
  const line = value === null ? '' : `${key}: ${quote(value)}\n`;
  const block = frontMatterBlock(text);
  if (!block) return value === null ? null : { from: 0, to: 0, insert: `---\n${line}---\n\n` };
  const yaml = text.slice(block.from, block.to);
  const match = keyLine(key).exec(yaml);
  if (match) {
    const from = block.from + match.index;
    const end = from + match[0].length;
    const to = text[end] === '\n' ? end + 1 : end;
    return { from, to, insert: line };
  }
  return value === null ? null : { from: block.to, to: block.to, insert: line };
}

function quote(value: string): string {
  return /^[\w#.\- ]+$/.test(value) && !/^(true|false|null|yes|no|~)$/i.test(value) ? value : JSON.stringify(value);
}

function unquote(value: string): string {
  if (/^".*"$/.test(value)) {
    try {
      return JSON.parse(value) as string;
    } catch {
      return value;
    }
  }
  return value.replace(/^'(.*)'$/, '$1');
}

/** The 1-based line of the front matter's `key` (for an error about it), or null. */
export function settingLine(text: string, key: string): number | null {
  const block = frontMatterBlock(text);
  if (!block) return null;
  const match = keyLine(key).exec(text.slice(block.from, block.to));
  return match ? text.slice(0, block.from + match.index).split('\n').length : null;
}
