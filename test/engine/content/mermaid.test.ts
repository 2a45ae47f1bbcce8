import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { render, RendererBoundError, type Features } from '#engine/index.js';
import { renderMermaid } from '#engine/content/mermaid/index.js';
import type { Drawing } from '#engine/drawing/drawing.js';
import { fixture } from '../../support/fixtures.js';
import { pdffonts, pdfFile, pdftotext } from '../../support/pdf-tools.js';
import { destinationPage, links, openPdf } from '../../support/pdfjs.js';

const FIXTURE = fixture('content/mermaid.md');
const BLOCKS = [...FIXTURE.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((match) => match[1]!);

/** Words each diagram of the fixture must show as text, by its header keyword. */
const LABELS: Record<string, string[]> = {
  flowchart: ['Ingest', 'Upload', 'Parse Markdown', 'Lay out', 'Paint PDF', 'Refuse', 'pages', 'too long'],
  sequenceDiagram: ['Client', 'Service', 'POST /v1/render', '200 application/pdf', 'Idempotent retries'],
  classDiagram: ['Drawing', 'Formula', 'PathItem', 'TextItem', 'width', 'tex', 'render()'],
  'stateDiagram-v2': ['Queued', 'Rendering', 'Delivered', 'Failed', 'worker free'],
  erDiagram: ['ACCOUNT', 'APIKEY', 'DOCUMENT', 'holds', 'renders', 'email'],
  'xychart-beta': ['Renders per month', 'Jan', 'May', '500'],
  pie: ['Pets adopted by volunteers', 'Dogs [386]', 'Cats [85]', 'Rats [15]', '79%'],
  gantt: ['Release plan', 'Engine', 'Typesetting core', 'Rich content', 'Accounts and plans', 'Seals', 'Launch', '2024-01-14'],
  timeline: ['History of typesetting', 'Metal', 'Digital', '1450', "Gutenberg's press", 'Linotype', '1978', 'TeX'],
  mindmap: ['Quire', 'Engine', 'Parse', 'Layout', 'Paint', 'Accounts', 'Quotas', 'Content', 'Math', 'Diagrams'],
  gitGraph: ['main', 'feature', 'init', 'diagrams', 'fonts', 'v1.0'],
  journey: ['Writing a report', 'Draft', 'Publish', 'Outline', 'Write', 'Render PDF', 'Writer', 'Editor'],
  quadrantChart: ['Features by effort and value', 'Do first', 'Plan', 'Later', 'Avoid', 'Emoji', 'Seals', 'Themes', 'Low effort', 'High value'],
};

const LIGHT_TEXT = [0x1f, 0x23, 0x28];
const DARK_TEXT = [0xe6, 0xed, 0xf3];

const keywordOf = (source: string) => source.trim().split(/\s/)[0]!;
const words = (label: string) =>
  new RegExp(
    label
      .split(/\s+/)
      .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\s+'),
  );

async function drawingOf(source: string, theme: Features['theme'] = 'light'): Promise<Drawing> {
  const result = await renderMermaid(source, { theme, signal: undefined });
  assert.ok(result.ok, result.ok ? '' : result.reason);
  return result.drawing;
}

/** The alternative text of every Figure in the document, page by page, as pdf.js reads the tags. */
async function figureAlts(pdf: Uint8Array): Promise<string[]> {
  const document = await openPdf(pdf);
  const alts: string[] = [];
  type Node = { role?: string; alt?: string; children?: Node[] };
  const visit = (node: Node) => {
    if (node.role === 'Figure') alts.push(node.alt ?? '');
    node.children?.forEach(visit);
  };
  for (let page = 1; page <= document.numPages; page++) visit((await (await document.getPage(page)).getStructTree()) as Node);
  await document.destroy();
  return alts;
}

function rasterImages(pdf: Uint8Array): string[] {
  return execFileSync('pdfimages', ['-list', pdfFile(pdf)], { encoding: 'utf8' })
    .split('\n')
    .slice(2)
    .filter((line) => line.trim());
}

describe('mermaid diagrams', () => {
  it('should draw every diagram type of the fixture with its labels as extractable text', async () => {
    assert.deepEqual(BLOCKS.map(keywordOf), Object.keys(LABELS));
    const { pdf } = await render(FIXTURE);
    const text = await pdftotext(pdf);
    assert.doesNotMatch(text, /Diagram not drawn/);
    for (const block of BLOCKS) for (const label of LABELS[keywordOf(block)]!) assert.match(text, words(label), `${keywordOf(block)}: ${label}`);
  });

  it('should tag each diagram as a Figure whose alternative text is its source', async () => {
    const { pdf } = await render(FIXTURE);
    assert.deepEqual(
      await figureAlts(pdf),
      BLOCKS.map((block) => block.trim()),
    );
  });

  it('should draw diagrams as vector paths with no raster image', async () => {
    for (const block of BLOCKS) {
      const drawing = await drawingOf(block);
      const kinds = new Set(drawing.items.map((item) => item.kind));
      assert.ok(kinds.has('path') && kinds.has('text'), keywordOf(block));
      assert.ok(!kinds.has('image'), keywordOf(block));
      assert.ok(drawing.width > 0 && drawing.height > 0 && drawing.unit > 0, keywordOf(block));
    }
    const { pdf } = await render(FIXTURE);
    assert.deepEqual(rasterImages(pdf), []);
  });

  it('should follow the theme: light text on the dark page, dark text on the light one', async () => {
    for (const block of BLOCKS) {
      const colours = async (theme: Features['theme']) =>
        new Set((await drawingOf(block, theme)).items.flatMap((item) => (item.kind === 'text' ? [item.color.join()] : [])));
      const light = await colours('light');
      const dark = await colours('dark');
      assert.ok(light.has(LIGHT_TEXT.join()) && !light.has(DARK_TEXT.join()), `${keywordOf(block)} light`);
      assert.ok(dark.has(DARK_TEXT.join()) && !dark.has(LIGHT_TEXT.join()), `${keywordOf(block)} dark`);
    }
    const { pdf } = await render(FIXTURE, { features: { theme: 'dark' } });
    assert.match(await pdftotext(pdf), /Pets adopted by volunteers/);
    assert.deepEqual(rasterImages(pdf), []);
  });

  it('should draw arrowheads and class-relation ends, which beautiful-mermaid writes as SVG markers', async () => {
    // Polygons of n corners: `M x y` then n - 1 `L x y`, closed.
    const polygons = (drawing: Drawing, corners: number) =>
      drawing.items.filter((item) => item.kind === 'path' && item.fill !== null && new RegExp(`^M[^A-Z]+(L[^A-Z]+){${corners - 1}}Z$`).test(item.d)).length;
    const flowchart = await drawingOf('flowchart LR\n  A --> B\n  B --> C\n  C --> D');
    assert.equal(polygons(flowchart, 3), 3, 'one arrowhead per edge');
    const classes = await drawingOf('classDiagram\n  Whole *-- Part\n  Pool o-- Item');
    assert.equal(polygons(classes, 4), 2, 'a filled and a hollow diamond');
  });

  it('should place the coloured runs of a class member one after another', async () => {
    const drawing = await drawingOf('classDiagram\n  class Account {\n    +String email\n  }');
    const runs = drawing.items.filter(
      (item): item is Extract<typeof item, { kind: 'text' }> => item.kind === 'text' && ['+', 'email', ':', 'String'].includes(item.text),
    );
    assert.deepEqual(
      runs.map((run) => run.text),
      ['+', 'email', ':', 'String'],
    );
    for (let index = 1; index < runs.length; index++) assert.ok(runs[index]!.x > runs[index - 1]!.x, `${runs[index]!.text} follows ${runs[index - 1]!.text}`);
  });

  it("should set a sequence actor's name inside its box, above the first message", async () => {
    const drawing = await drawingOf('sequenceDiagram\n  actor Bob\n  participant Alice\n  Alice->>Bob: Hello');
    const text = (value: string) => drawing.items.find((item): item is Extract<typeof item, { kind: 'text' }> => item.kind === 'text' && item.text === value)!;
    assert.ok(text('Bob').y < text('Hello').y - 9, `Bob at ${text('Bob').y}, the message label at ${text('Hello').y}`);
  });

  it("should set a label smaller when Quire's face runs wider than the box beautiful-mermaid made", async () => {
    const drawing = await drawingOf('flowchart TD\n  A -->|with a rather long transition label here| B');
    const label = drawing.items.find((item) => item.kind === 'text' && item.text.startsWith('with a rather'));
    assert.ok(label && label.kind === 'text' && label.size < 11, 'edge labels are 11 px unless they must shrink');
  });

  it('should show the source as code when the mermaid switch is off', async () => {
    const markdown = 'Before.\n\n```mermaid\npie\n  "Dogs" : 386\n  "Cats" : 85\n```\n\nAfter.';
    const { pdf } = await render(markdown, { features: { mermaid: false } });
    assert.match(await pdftotext(pdf), /"Dogs" : 386/);
    assert.ok((await pdffonts(pdf)).some((font) => /JetBrainsMono/.test(font.name)));
    assert.deepEqual(await figureAlts(pdf), []);
    const on = await render(markdown);
    assert.doesNotMatch(await pdftotext(on.pdf), /"Dogs" : 386/);
    assert.equal((await figureAlts(on.pdf)).length, 1);
  });

  it('should show invalid or unsupported diagrams as code with a short note, and render the rest', async () => {
    const markdown = [
      'Before.',
      '```mermaid\npie\n  "Dogs" : -3\n```',
      '```mermaid\ngitGraph\n  commit\n  checkout nowhere\n```',
      '```mermaid\nflowchart XY\n  A --> B\n```',
      '```mermaid\nsankey-beta\n  a,b,1\n```',
      '```mermaid\n```',
      'After.',
    ].join('\n\n');
    const { pdf } = await render(markdown);
    const text = await pdftotext(pdf);
    assert.match(text, /Diagram not drawn: a pie slice needs a value of zero or more/);
    assert.match(text, /Diagram not drawn: there is no branch "nowhere"/);
    assert.match(text, /Diagram not drawn: a flowchart runs TD, TB, LR, RL or BT: "flowchart XY"/);
    assert.match(text, /Diagram not drawn: Mermaid "sankey-beta" diagrams are not supported/);
    assert.match(text, /Diagram not drawn: the diagram is empty/);
    assert.match(text, /checkout nowhere/);
    assert.match(text, /Before\.[\s\S]*After\./);
    assert.deepEqual(await figureAlts(pdf), []);
  });

  it('mermaid_appendix: should draw each diagram again on its own page after the document, linked from where it was written', async () => {
    const markdown =
      'Two diagrams.\n\n```mermaid\npie\n  "Dogs" : 386\n  "Cats" : 85\n```\n\nBetween them.\n\n```mermaid\ngitGraph\n  commit id: "first"\n  branch topic\n  commit id: "second"\n```\n\nThe end.';
    const off = await render(markdown);
    const on = await render(markdown, { features: { mermaid_appendix: true } });
    assert.equal(on.pages, off.pages + 2);
    assert.deepEqual(await links(off.pdf), []);
    const internal = await links(on.pdf);
    assert.deepEqual(
      internal.map((link) => [link.page, link.dest]),
      [
        [1, 'diagram-1'],
        [1, 'diagram-2'],
      ],
    );
    assert.equal(await destinationPage(on.pdf, 'diagram-1'), off.pages + 1);
    assert.equal(await destinationPage(on.pdf, 'diagram-2'), off.pages + 2);
    assert.match(await pdftotext(on.pdf, { first: off.pages + 1, last: off.pages + 1 }), /Dogs[\s\S]*Cats/);
    assert.match(await pdftotext(on.pdf, { first: off.pages + 2, last: off.pages + 2 }), /topic[\s\S]*second|second[\s\S]*topic/);
    assert.equal((await figureAlts(on.pdf)).length, 4, 'each diagram is a Figure in place and on its page');
  });

  it('should answer a diagram bomb with the ElementLimit bound instead of laying it out', async () => {
    const bombs = [
      `flowchart TD\n${Array.from({ length: 5000 }, (_, index) => `  N${index} --> N${index + 1}`).join('\n')}`,
      `flowchart LR\n  ${Array.from({ length: 4000 }, (_, index) => `N${index}`).join(' --> ')}`,
      `pie\n${Array.from({ length: 5000 }, (_, index) => `  "slice ${index}" : 1`).join('\n')}`,
      `mindmap\n  root\n${Array.from({ length: 3000 }, (_, index) => `    leaf ${index}`).join('\n')}`,
      `xychart-beta\n  bar [${Array.from({ length: 3000 }, (_, index) => index).join(', ')}]`,
      `gantt\n  dateFormat YYYY-MM-DD\n  excludes weekends\n  Forever : 2024-01-01, 99999999d`,
    ];
    for (const bomb of bombs) {
      await assert.rejects(
        renderMermaid(bomb, { theme: 'light', signal: undefined }),
        (error: unknown) => error instanceof RendererBoundError && error.bound === 'ElementLimit',
        keywordOf(bomb),
      );
    }
    await assert.rejects(
      render(`Text.\n\n\`\`\`mermaid\n${bombs[0]}\n\`\`\`\n`),
      (error: unknown) => error instanceof RendererBoundError && error.bound === 'ElementLimit',
    );
  });

  it('should use the front matter title as the caption', async () => {
    const { pdf } = await render('```mermaid\n---\ntitle: Adoptions in 2024\n---\npie\n  "Dogs" : 3\n  "Cats" : 1\n```\n');
    assert.match(await pdftotext(pdf), /Dogs[\s\S]*Adoptions in 2024/);
  });

  it('should give byte-identical PDFs for the same diagrams', async () => {
    const first = await render(FIXTURE, { features: { theme: 'dark' } });
    const second = await render(FIXTURE, { features: { theme: 'dark' } });
    assert.deepEqual(Buffer.from(first.pdf), Buffer.from(second.pdf));
  });
});
