/**
 * A `:name:` as GitHub writes them (`:+1:`, `:t-rex:`, `:family_man_woman_girl:`); the closing
 * colon is looked ahead at so that, when the name is unknown, it can open the next one.
 */
const SHORTCODE = /:([a-z0-9_+-]+)(?=:)/g;

/**
 * The names without a letter (a test holds this to gemoji's list): a time of day (`23:33:13`)
 * needs no look at the names, which take a few milliseconds to load.
 */
export const NAMES_WITHOUT_LETTERS: ReadonlySet<string> = new Set(['100', '1234', '+1', '-1']);

let names: Promise<Record<string, string>> | null = null;

/**
 * `:shortcode:` names (GitHub's set, from gemoji) replaced by their emoji; unknown names stay as
 * written. gemoji is an ES module, so it loads asynchronously, and only once text holds a `:name:`
 * that may be one.
 */
export async function replaceShortcodes(text: string): Promise<string> {
  const matches = [...text.matchAll(SHORTCODE)].filter((match) => /[a-z]/.test(match[1]!) || NAMES_WITHOUT_LETTERS.has(match[1]!));
  if (matches.length === 0) return text;
  names ??= import('gemoji').then((module) => module.nameToEmoji);
  const nameToEmoji = await names;
  let out = '';
  let end = 0;
  for (const match of matches) {
    const name = match[1]!;
    if (match.index < end || !Object.hasOwn(nameToEmoji, name)) continue;
    out += text.slice(end, match.index) + nameToEmoji[name];
    end = match.index + name.length + 2;
  }
  return out + text.slice(end);
}
