import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './corpus.js';

export interface RichFigures {
  totalMs: number;
  pages: number;
  /** CPU milliseconds by module, from a CPU profile of the same cold render. */
  shares: Array<{ module: string; ms: number }>;
}

const DIAGRAMS = [
  'flowchart LR\n  A[Start] --> B{Check}\n  B -->|yes| C[Render]\n  B -->|no| D[Refuse]',
  'sequenceDiagram\n  Client->>Service: POST /v1/render\n  Service-->>Client: 200 PDF',
  'pie title Share\n  "A" : 40\n  "B" : 35\n  "C" : 25',
  'classDiagram\n  class Document {\n    +blocks\n    +render()\n  }\n  Document <|-- Report',
  'stateDiagram-v2\n  [*] --> Reserved\n  Reserved --> Charged\n  Reserved --> Returned',
  'gantt\n  title Plan\n  dateFormat YYYY-MM-DD\n  section Work\n  Engine :a1, 2026-01-01, 10d\n  Service :after a1, 7d',
  'erDiagram\n  ACCOUNT ||--o{ KEY : has\n  ACCOUNT ||--o{ PERIOD : counts',
  'timeline\n  title History\n  2024 : Idea\n  2025 : Engine\n  2026 : Service',
  'mindmap\n  root((Quire))\n    Engine\n    Service\n    CLI',
  'journey\n  title Render\n  section Write\n    Draft: 5: Author\n    Render: 4: Author',
];
const LANGUAGES = ['ts', 'python', 'go', 'rust', 'json', 'bash'];

/** The rich document, made by rule: 50 formulas, 10 diagrams, 30 code blocks. */
export function richDocument(): string {
  const parts: string[] = ['# A rich document\n'];
  for (let i = 0; i < 50; i++) {
    parts.push(
      i % 5 === 0
        ? `$$\\sum_{k=1}^{${i + 2}} k^2 = \\frac{n(n+1)(2n+1)}{6}\\quad(${i})$$`
        : `Formula ${i}: $\\alpha_{${i}} = \\sqrt{x^${(i % 4) + 2} + \\frac{1}{${i + 1}}}$ in running text.`,
    );
    if (i % 5 === 0) parts.push('```mermaid\n' + DIAGRAMS[i / 5]! + '\n```');
  }
  for (let i = 0; i < 30; i++) {
    const language = LANGUAGES[i % LANGUAGES.length]!;
    parts.push('```' + language + '\n' + codeSample(language, i) + '\n```');
  }
  return parts.join('\n\n');
}

function codeSample(language: string, i: number): string {
  switch (language) {
    case 'python':
      return `def total_${i}(items: list[int]) -> int:\n    """Sum the items."""\n    return sum(x * ${i} for x in items)`;
    case 'go':
      return `func Total${i}(items []int) int {\n\tsum := 0\n\tfor _, x := range items {\n\t\tsum += x * ${i}\n\t}\n\treturn sum\n}`;
    case 'rust':
      return `fn total_${i}(items: &[i64]) -> i64 {\n    items.iter().map(|x| x * ${i}).sum()\n}`;
    case 'json':
      return `{ "id": ${i}, "name": "item-${i}", "tags": ["a", "b"], "active": true }`;
    case 'bash':
      return `for f in *.md; do\n  quire render "$f" -o "out/\${f%.md}-${i}.pdf"\ndone`;
    default:
      return `export function total${i}(items: number[]): number {\n  return items.reduce((sum, x) => sum + x * ${i}, 0); // weighted\n}`;
  }
}

const GROUPS: Array<[string, RegExp]> = [
  ['math (MathJax)', /mathjax-full|engine\/content\/math/],
  ['diagrams (beautiful-mermaid, elkjs, own renderers)', /beautiful-mermaid|elkjs|engine\/content\/mermaid/],
  ['code highlighting (highlight.js)', /highlight\.js|engine\/content\/highlight/],
  ['SVG to drawings', /engine\/content\/svg|htmlparser2|css-tree|css-select|domhandler|entities/],
  ['text, layout, paint (engine)', /\/engine\//],
  ['fonts and PDF (fontkit, PDFKit)', /fontkit|restructure|pdfkit|tiny-inflate|unicode-|brotli|zlib/],
  ['Markdown parser', /markdown-it|linkify|mdurl|uc\.micro|punycode/],
];

/** One cold render in a fresh process, timed, and its CPU profile grouped by module. */
export function benchRich(): RichFigures {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-rich-'));
  const file = path.join(dir, 'rich.md');
  writeFileSync(file, richDocument());
  const output = execFileSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, path.join(ROOT, 'dist/bench/render-child.js'), file, '0'], {
    encoding: 'utf8',
  });
  const child = JSON.parse(output) as { firstMs: number; pages: number };
  const profile = JSON.parse(readFileSync(path.join(dir, readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))!), 'utf8')) as CpuProfile;
  return { totalMs: child.firstMs, pages: child.pages, shares: groupProfile(profile) };
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { url: string } }>;
  samples: number[];
  timeDeltas: number[];
}

function groupProfile(profile: CpuProfile): Array<{ module: string; ms: number }> {
  const urls = new Map(profile.nodes.map((node) => [node.id, node.callFrame.url]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const url = urls.get(id) ?? '';
    const group = GROUPS.find(([, pattern]) => pattern.test(url))?.[0] ?? 'other (Node, module loading, GC)';
    totals.set(group, (totals.get(group) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  return [...totals].map(([module, ms]) => ({ module, ms })).sort((a, b) => b.ms - a.ms);
}
