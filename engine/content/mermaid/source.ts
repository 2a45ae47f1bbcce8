/** A Mermaid document with what every diagram type shares read off: front matter, directives, comments. */
export interface MermaidSource {
  /** The diagram keyword as written in the header (`flowchart`, `gitGraph`, `pie`…). */
  keyword: string;
  /** The header line without its keyword (`LR`, `title Pets`, `showData`…). */
  headerRest: string;
  /** Statements after the header: trimmed, without blank lines and `%%` comments. */
  lines: string[];
  /** The same statements with their indentation (tabs as four spaces), for diagrams nested by it. */
  indented: string[];
  /** The header and statements joined again: what a renderer that parses whole text gets. */
  text: string;
  /** `title:` from the front matter, shown as the figure's caption. */
  title: string | null;
}

/** Splits off YAML front matter and `%%{…}%%` directives, drops comments, finds the header. */
export function readSource(source: string): MermaidSource | null {
  let body = source.replace(/\r\n?/g, '\n');
  let title: string | null = null;
  const frontMatter = /^\s*---[ \t]*\n([\s\S]*?)\n[ \t]*---[ \t]*(?:\n|$)/.exec(body);
  if (frontMatter) {
    const written = /^title:[ \t]*(.+)$/m.exec(frontMatter[1]!)?.[1]?.trim();
    title = written ? unquote(written) : null;
    body = body.slice(frontMatter[0].length);
  }
  body = body.replace(/%%\{[\s\S]*?\}%%/g, '');
  const indented = withoutDescriptions(
    body
      .split('\n')
      .map((line) => line.replace(/\t/g, '    ').trimEnd())
      .filter((line) => line.trim() && !line.trim().startsWith('%%')),
  );
  const header = indented.shift()?.trim();
  if (!header) return null;
  const match = /^([A-Za-z][\w-]*)\s*:?\s*(.*)$/.exec(header);
  if (!match) return null;
  const lines = indented.map((line) => line.trim());
  return { keyword: match[1]!, headerRest: match[2]!.trim(), lines, indented, text: [header, ...lines].join('\n'), title };
}

/**
 * `accTitle:` and `accDescr:` (or `accDescr { … }`) describe a diagram for screen readers; the
 * figure's alternative text is its whole source, so they are dropped before any parser sees them.
 */
function withoutDescriptions(lines: string[]): string[] {
  const kept: string[] = [];
  let inBlock = false;
  for (const written of lines) {
    const line = written.trim();
    if (inBlock) inBlock = !line.includes('}');
    else if (/^accDescr\s*\{/.test(line)) inBlock = !line.includes('}');
    else if (!/^acc(Title|Descr)\s*:/.test(line)) kept.push(written);
  }
  return kept;
}

export function unquote(text: string): string {
  const match = /^(["'])(.*)\1$/.exec(text.trim());
  return match ? match[2]! : text.trim();
}
