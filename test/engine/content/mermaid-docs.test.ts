import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { render } from '#engine/index.js';
import { renderMermaid } from '#engine/content/mermaid/index.js';
import type { Drawing } from '#engine/drawing/drawing.js';
import { FIXTURES } from '../../support/fixtures.js';
import { pdftotext } from '../../support/pdf-tools.js';

/**
 * Mermaid's own documentation examples (fixtures/mermaid-docs): each draws without an error, and
 * the words of every label its source declares, read from the source by a small reader per
 * diagram type below, are text in the drawing and in the PDF. Examples Quire does not draw are
 * listed in the manifest with the reason.
 */
const DOCS = `${FIXTURES}/mermaid-docs`;
const MANIFEST = JSON.parse(readFileSync(`${DOCS}/manifest.json`, 'utf8')) as { unsupported: Record<string, string> };
const EXAMPLES = readdirSync(DOCS)
  .filter((name) => name.endsWith('.mmd'))
  .sort();

/** The statements of a source: front matter, directives, comments and accessibility lines dropped. */
function statements(source: string): string[] {
  const body = source.replace(/^\s*---\n[\s\S]*?\n\s*---\n/, '').replace(/%%\{[\s\S]*?\}%%/g, '');
  return body
    .split('\n')
    .map((line) => line.replace(/\s%%.*$/, '').trim())
    .filter((line) => line && !line.startsWith('%%') && !/^acc(Title|Descr)\b/.test(line))
    .slice(1);
}

const after = (line: string, separator: string) => (line.includes(separator) ? line.slice(line.indexOf(separator) + separator.length) : '');
const unquote = (text: string) => text.trim().replace(/^"(.*)"$/, '$1');

/** Node and edge labels of a flowchart: text inside brackets and pipes, or `-- text -->`. */
function flowchartLabels(lines: string[]): string[] {
  return lines
    .filter((line) => !/^(classDef|class|style|linkStyle|click|subgraph|end|direction)\b/.test(line))
    .flatMap((line) => [
      ...[
        ...line.matchAll(
          /\b\w(?:[\w-]*\w)?\s*(?:\[\[|\[\(|\(\[|\(\(\(|\(\(|\[\/|\[\\|\{\{|\[|\(|\{|>)("[^"]*"|[^\])}"@]*?)(?:\]\]|\)\]|\]\)|\)\)\)|\)\)|\/\]|\\\]|\}\}|\]|\)|\})/g,
        ),
      ].map((match) => match[1]!),
      ...[...line.matchAll(/\|("[^"]*"|[^|]*)\|/g)].map((match) => match[1]!),
      ...[...line.matchAll(/(?:^|\s)(?:--|==|-\.)\s+([^->=.][^>]*?)\s+(?:-->|---|==>|-\.->)/g)].map((match) => match[1]!),
    ]);
}

function sequenceLabels(lines: string[]): string[] {
  return lines.flatMap((line) => {
    const named = /^(?:participant|actor)\s+([^\s@]+)(?:@\{[^}]*\})?(?:\s+as\s+(.+))?$/.exec(line);
    if (named) return [named[2] ?? named[1]!];
    if (/^(loop|alt|else|opt|par|and|critical|option|break|rect|box|links?)\b/.test(line)) return [];
    return line.includes(':') ? [after(line, ':')] : [];
  });
}

function classLabels(lines: string[]): string[] {
  return lines.flatMap((line) => {
    if (/^(classDef|style|cssClass|click|callback|link|note|direction|namespace)\b/.test(line) || line === '}') return [];
    const declared = /^class\s+([\w]+)/.exec(line);
    if (declared) return [declared[1]!];
    const relation =
      /^(\w+)\s*(?:"[^"]*"\s*)?(?:<\|--|\*--|o--|<--|--|<\.\.|<\|\.\.|\.\.|-->|--\*|--o|--\|>|\.\.>|\.\.\|>)\s*(?:"[^"]*"\s*)?(\w+)\s*(?::\s*(.*))?$/.exec(
        line,
      );
    if (relation) return [relation[1]!, relation[2]!, ...(relation[3] ? [relation[3]] : [])];
    return [];
  });
}

/** A state shows its description (`id : text`) in place of its id. */
function stateLabels(written: string[]): string[] {
  const lines = written.map((line) => line.replace(/:::\w+/g, ''));
  const withDescription = new Set(lines.flatMap((line) => /^(\w+)\s*:/.exec(line)?.slice(1, 2) ?? []));
  return lines.flatMap((line) => {
    if (/^(classDef|class|direction|note|end note|--|\})/.test(line) || /^state\s+\S+\s*<</.test(line)) return [];
    const described = /^state\s+"([^"]*)"/.exec(line);
    if (described) return [described[1]!];
    const state = /^state\s+(\w+)/.exec(line);
    if (state) return [state[1]!];
    const transition = /^(\S+)\s*-->\s*(\S+?)\s*(?::\s*(.*))?$/.exec(line);
    if (transition) return [transition[1]!, transition[2]!].filter((name) => !name.startsWith('[*]') && !withDescription.has(name)).concat(transition[3] ?? '');
    return line.includes(':') ? [after(line, ':')] : [line];
  });
}

/** Entities (shown by their alias, `p[Person]`, when they have one), relationship labels and attributes. */
function erLabels(written: string[]): string[] {
  const lines = written.map((line) => line.replace(/:::[\w-]+/g, ''));
  const aliases = new Map(lines.flatMap((line) => [...line.matchAll(/([\w-]+)\[([^\]]+)\]/g)].map((match) => [match[1]!, match[2]!] as const)));
  const shown = (written: string) => {
    const name = written.replace(/\[.*\]$/, '');
    return aliases.get(name) ?? name;
  };
  let inBlock = false;
  return lines.flatMap((line) => {
    if (inBlock) {
      inBlock = line !== '}';
      return inBlock ? line.split(/\s+/).slice(0, 2) : [];
    }
    if (line.endsWith('{')) {
      inBlock = true;
      return [shown(line.slice(0, -1).trim())];
    }
    if (/^(direction|style|classDef|class)\b/.test(line)) return [];
    const ends = line
      .split(':')[0]!
      .trim()
      .split(/\s+|[|o}{]{2}(?:--|\.\.)[|o}{]{2}/);
    return [shown(ends[0]!), shown(ends.at(-1)!), after(line, ':')];
  });
}

function xychartLabels(lines: string[]): string[] {
  return lines.flatMap((line) => {
    if (line.startsWith('title')) return [unquote(line.slice(5))];
    const axis = /^[xy]-axis\s+(?:"([^"]*)"|(\S+(?:\s+\S+)*?))?\s*(?:\[(.*)\]|-?\d.*)?$/.exec(line);
    if (axis) return [axis[1] ?? '', ...(axis[3] ?? '').split(',').map(unquote)];
    return [];
  });
}

function pieLabels(lines: string[]): string[] {
  return lines.flatMap((line) => (line.startsWith('title') ? [line.slice(5)] : (/^"([^"]*)"/.exec(line)?.slice(1, 2) ?? [])));
}

function ganttLabels(lines: string[]): string[] {
  return lines.flatMap((line) => {
    if (/^(dateFormat|axisFormat|tickInterval|excludes|includes|todayMarker|weekday|click|displayMode|inclusiveEndDates|topAxis)\b/.test(line)) return [];
    if (/^(title|section)\s/.test(line)) return [line.replace(/^\S+\s+/, '')];
    return line.includes(':') ? [line.slice(0, line.indexOf(':'))] : [];
  });
}

function timelineLabels(lines: string[]): string[] {
  return lines.flatMap((line) => (/^(title|section)\s/.test(line) ? [line.replace(/^\S+\s+/, '')] : line.split(':')));
}

function mindmapLabels(lines: string[]): string[] {
  return lines
    .filter((line) => !line.startsWith('::'))
    .map((line) => {
      const shaped = /^[\w-]*\s*(?:\(\(|\)\)|\(-|\{\{|\[|\(|\))(.*?)(?:\)\)|\(\(|-\)|\}\}|\]|\)|\()$/.exec(line);
      return unquote(shaped ? shaped[1]! : line).replace(/^`|`$/g, '');
    });
}

function gitGraphLabels(lines: string[]): string[] {
  return lines.flatMap((line) =>
    [...line.matchAll(/(?:id|tag):\s*"([^"]*)"/g)].map((match) => match[1]!).concat(/^branch\s+(\S+)/.exec(line)?.slice(1, 2) ?? []),
  );
}

function journeyLabels(lines: string[]): string[] {
  return lines.flatMap((line) => {
    if (/^(title|section)\s/.test(line)) return [line.replace(/^\S+\s+/, '')];
    const [task, , actors] = line.split(':');
    return [task!, ...(actors ?? '').split(',')];
  });
}

function quadrantLabels(lines: string[]): string[] {
  return lines.flatMap((line) => {
    if (/^(classDef)\b/.test(line)) return [];
    if (/^(title|quadrant-\d)\s/.test(line)) return [line.replace(/^\S+\s+/, '')];
    if (/^[xy]-axis\s/.test(line)) return line.replace(/^\S+\s+/, '').split('-->');
    return [line.split(/:::|:/)[0]!];
  });
}

const READERS: Record<string, (lines: string[]) => string[]> = {
  flowchart: flowchartLabels,
  sequence: sequenceLabels,
  class: classLabels,
  state: stateLabels,
  er: erLabels,
  xychart: xychartLabels,
  pie: pieLabels,
  gantt: ganttLabels,
  timeline: timelineLabels,
  mindmap: mindmapLabels,
  gitgraph: gitGraphLabels,
  journey: journeyLabels,
  quadrant: quadrantLabels,
};

/** Words a reader sees: letters and digits, markup (`**`, `<br>`, entities) set aside. */
const wordsOf = (text: string) =>
  text
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/#\w+;/g, ' ')
    .match(/[\p{L}\p{N}]+/gu) ?? [];

function expectedWords(name: string, source: string): string[] {
  const reader = READERS[name.replace(/-\d+\.mmd$/, '')]!;
  return [...new Set(reader(statements(source)).flatMap(wordsOf))];
}

const drawnWords = (drawing: Drawing) => new Set(drawing.items.flatMap((item) => (item.kind === 'text' ? wordsOf(item.text) : [])));

describe('mermaid documentation examples', () => {
  it('should list as unsupported only examples that exist', () => {
    for (const name of Object.keys(MANIFEST.unsupported)) assert.ok(EXAMPLES.includes(name), name);
  });

  it('should draw every supported example with the words of all its labels, and no listed one in full', async () => {
    const wrong: string[] = [];
    for (const name of EXAMPLES) {
      const source = readFileSync(`${DOCS}/${name}`, 'utf8');
      // Only a renderer bound may throw; an unreadable diagram answers why.
      const result = await renderMermaid(source, { theme: 'light', signal: undefined });
      const drawn = result.ok ? drawnWords(result.drawing) : new Set<string>();
      const absent = expectedWords(name, source).filter((word) => !drawn.has(word));
      const unsupported = name in MANIFEST.unsupported;
      if (unsupported && result.ok && !absent.length) wrong.push(`${name}: listed as unsupported, but drawn in full`);
      else if (!unsupported && !result.ok) wrong.push(`${name}: not drawn (${result.reason})`);
      else if (!unsupported && absent.length) wrong.push(`${name}: ${absent.join(' ')}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('should put those words in the PDF text', async () => {
    const absent: string[] = [];
    for (const name of EXAMPLES.filter((example) => !(example in MANIFEST.unsupported))) {
      const source = readFileSync(`${DOCS}/${name}`, 'utf8');
      const text = await pdftotext((await render(`\`\`\`mermaid\n${source}\`\`\`\n`)).pdf);
      if (/Diagram not drawn/.test(text)) absent.push(`${name}: not drawn`);
      const found = new Set(wordsOf(text));
      const missing = expectedWords(name, source).filter((word) => !found.has(word));
      if (missing.length) absent.push(`${name}: ${missing.join(' ')}`);
    }
    assert.deepEqual(absent, []);
  });
});
