/**
 * A `:name:` as GitHub writes them (`:+1:`, `:t-rex:`, `:family_man_woman_girl:`); the closing
 * colon is looked ahead at so that, when the name is unknown, it can open the next one.
 */
const SHORTCODE = /:([a-z0-9_+-]+)(?=:)/g;

let names: Promise<Record<string, string>> | null = null;

/**
 * `:shortcode:` names (GitHub's set, from gemoji) replaced by their emoji; unknown names stay as
 * written. gemoji is an ES module, so it loads asynchronously, and only once text holds a `:name:`.
 */
export async function replaceShortcodes(text: string): Promise<string> {
  const matches = [...text.matchAll(SHORTCODE)];
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
