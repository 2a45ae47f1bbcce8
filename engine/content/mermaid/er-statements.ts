/**
 * ER statements rewritten into the one spelling beautiful-mermaid 1.1.3 reads. Its parser drops a
 * relationship it cannot read, and with it any entity only that relationship named: it reads
 * cardinalities by their sorted characters and misses `}o` (sorted `o}`), it needs spaces around
 * the cardinalities, and it knows neither Mermaid's word aliases (`zero or more`, `many(0)`, `1+`…)
 * nor `to` / `optionally to` / `.-` / `-.` between them. Its parser reads either end the same way,
 * so each cardinality is written in a form it accepts on both sides. It takes a name to run to the
 * first space and shows it as written, so a quoted name or an alias (`p["Customer Account"]`)
 * becomes its text with spaces held by NAME_SPACE, which the caller turns back into spaces.
 */

/** Stands for a space inside an entity's name while beautiful-mermaid reads it (a private-use character). */
export const NAME_SPACE = '\uE000';

type Cardinality = 'one' | 'zero-one' | 'many' | 'zero-many';

/** Mermaid's cardinality spellings (its lexer is case-insensitive), longest first. */
const CARDINALITIES: ReadonlyArray<readonly [string, Cardinality]> = [
  ['one or zero', 'zero-one'],
  ['zero or one', 'zero-one'],
  ['one or more', 'many'],
  ['one or many', 'many'],
  ['zero or more', 'zero-many'],
  ['zero or many', 'zero-many'],
  ['only one', 'one'],
  ['many(0)', 'zero-many'],
  ['many(1)', 'many'],
  ['many', 'zero-many'],
  ['one', 'one'],
  ['1+', 'many'],
  ['0+', 'zero-many'],
  ['1', 'one'],
  ['|o', 'zero-one'],
  ['o|', 'zero-one'],
  ['||', 'one'],
  ['}o', 'zero-many'],
  ['o{', 'zero-many'],
  ['}|', 'many'],
  ['|{', 'many'],
  // A parent in a Markdown-style hierarchy: exactly one.
  ['u', 'one'],
];

/** Spellings beautiful-mermaid reads on either side. */
const WRITTEN: Record<Cardinality, string> = { one: '||', 'zero-one': 'o|', many: '|{', 'zero-many': 'o{' };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CARDINALITY = `(${CARDINALITIES.map(([spelling]) => escapeRegExp(spelling)).join('|')})`;
const IDENTIFYING = /^(--|to)$/i;
const LINK = '(--|\\.\\.|\\.-|-\\.|optionally\\s+to|to)';
const ENTITY = '("[^"]*"|[\\p{L}\\p{N}_*-]+(?:\\[[^\\]]*\\])?)(?::::[\\w-]+)?';
// Word spellings need spaces around them; symbols may be glued to the names.
const RELATIONSHIP = new RegExp(`^${ENTITY}\\s*${CARDINALITY}\\s*${LINK}\\s*${CARDINALITY}\\s*${ENTITY}\\s*(?::\\s*(.*))?$`, 'iu');
const LONE_ENTITY = new RegExp(`^${ENTITY}$`, 'u');

/** The ER body (statements after the header) in beautiful-mermaid's spelling; attribute blocks untouched. */
export function erStatements(lines: readonly string[]): string[] {
  const aliases = new Map([...lines.join('\n').matchAll(/([\p{L}\p{N}_*-]+)\[\s*"?([^\]"]+)"?\s*\]/gu)].map((match) => [match[1]!, match[2]!.trim()]));
  const name = (written: string) => {
    const id = written.replace(/\[[^\]]*\]$/, '').replace(/:::[\w-]+$/, '');
    return (aliases.get(id) ?? id.replace(/^"(.*)"$/, '$1')).replace(/ /g, NAME_SPACE);
  };
  const written: string[] = [];
  let inBlock = false;
  for (const line of lines) {
    if (inBlock) {
      written.push(line);
      inBlock = line !== '}';
      continue;
    }
    const block = /^(.*?)\s*\{$/.exec(line);
    if (block && !RELATIONSHIP.test(line)) {
      written.push(`${name(block[1]!)} {`);
      inBlock = true;
      continue;
    }
    const relationship = RELATIONSHIP.exec(line);
    if (relationship) {
      const [, from, left, link, right, to, label] = relationship;
      const line = IDENTIFYING.test(link!) ? '--' : '..';
      written.push(`${name(from!)} ${WRITTEN[cardinality(left!)]}${line}${WRITTEN[cardinality(right!)]} ${name(to!)} : ${label?.trim() || '""'}`);
    } else if (LONE_ENTITY.test(line) && !/^direction$/i.test(line)) {
      // An entity named on its own line is drawn, with no attributes.
      written.push(`${name(LONE_ENTITY.exec(line)![1]!)} {`, '}');
    } else written.push(line);
  }
  return written;
}

function cardinality(spelling: string): Cardinality {
  const lower = spelling.toLowerCase();
  return CARDINALITIES.find(([written]) => written === lower)![1];
}
