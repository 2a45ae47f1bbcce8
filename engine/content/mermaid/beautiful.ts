import type { Drawing } from '../../drawing/drawing.js';
import { svgToDrawing } from '../svg/parse-svg.js';
import { checkCount, MAX_CHART_VALUES, MAX_GRAPH_ELEMENTS } from './bounds.js';
import { cssColor, type DiagramColors } from './colors.js';
import { actorsInTheirBoxes } from './actors.js';
import { uprightAxisTitles } from './axis-titles.js';
import { fitLabels } from './label-fit.js';
import { erStatements, NAME_SPACE } from './er-statements.js';
import { expandMarkers } from './markers.js';
import { positionTextRuns } from './text-runs.js';
import type { MermaidSource } from './source.js';
import { MermaidSyntaxError } from './syntax-error.js';

type BeautifulMermaid = typeof import('beautiful-mermaid');

// elkjs makes the first diagram cost ~250 ms: loaded on first use, kept for the process.
let library: Promise<BeautifulMermaid> | null = null;
const load = (): Promise<BeautifulMermaid> => (library ??= import('beautiful-mermaid'));

/** Diagram types beautiful-mermaid lays out as graphs with elkjs (sequence and xychart it lays out itself). */
const GRAPH_TYPES = new Set(['flowchart', 'graph', 'statediagram', 'statediagram-v2', 'classdiagram', 'classdiagram-v2', 'erdiagram']);

/**
 * Flowchart, sequence, class, state, ER and xychart through beautiful-mermaid: its SVG, with
 * markers drawn as shapes, becomes a Drawing whose labels stay text.
 */
export async function renderWithBeautifulMermaid(source: MermaidSource, colors: DiagramColors): Promise<Drawing> {
  const keyword = source.keyword.toLowerCase();
  const lines = statements(source);
  // Every statement declares at least a node, an edge or a style: a cheap bound before parsing.
  if (GRAPH_TYPES.has(keyword)) checkCount(lines.length, 2 * MAX_GRAPH_ELEMENTS, 'statements');
  if (keyword.startsWith('xychart')) checkCount(source.text.split(',').length, MAX_CHART_VALUES, 'values');
  const text = lines.join('\n');
  const flowchart = keyword === 'flowchart' || keyword === 'graph' || keyword.startsWith('statediagram');
  // Chains (`A --> B --> C …`) put many edges on one line; an edge has at most two runs of dashes.
  if (flowchart) checkCount((text.match(/--|==|-\./g) ?? []).length, 2 * MAX_GRAPH_ELEMENTS, 'edges');
  const mermaid = await load();
  if (flowchart) {
    const graph = mermaid.parseMermaid(text);
    checkCount(graph.nodes.size + graph.edges.length, MAX_GRAPH_ELEMENTS, 'nodes and edges');
  } else if (GRAPH_TYPES.has(keyword)) checkCount(lines.length, MAX_GRAPH_ELEMENTS, 'statements');
  const drawn = mermaid.renderMermaidSVG(text, {
    bg: cssColor(colors.background),
    fg: cssColor(colors.text),
    line: cssColor(colors.line),
    muted: cssColor(colors.muted),
    surface: cssColor(colors.surface),
    border: cssColor(colors.border),
    // The accent colours arrowheads in graphs and the first series of charts.
    ...(keyword.startsWith('xychart') ? { accent: cssColor(colors.series[0]!) } : {}),
    transparent: true,
    // The figure's own spacing sets it off from the text; 40 px all round would be too much.
    padding: 12,
  });
  const svg = drawn.replaceAll(NAME_SPACE, ' ');
  return svgToDrawing(positionTextRuns(uprightAxisTitles(fitLabels(expandMarkers(actorsInTheirBoxes(readableFaintText(svg, colors)))))));
}

/**
 * beautiful-mermaid sets its faintest text ("(no attributes)" in an empty entity, a class member's
 * visibility) at a quarter of the text colour over the page, under 2:1; the muted colour reads at
 * 4.5:1 or more on the page and on node boxes in every theme.
 */
function readableFaintText(svg: string, colors: DiagramColors): string {
  return svg.replace(/--_text-faint:[^;]*;/, `--_text-faint: ${cssColor(colors.muted)};`);
}

/**
 * The diagram's statements one to a line, as beautiful-mermaid reads them: graphs may separate
 * statements with `;` (outside quotes), and headers Mermaid accepts are spelled its way.
 */
function statements(source: MermaidSource): string[] {
  const keyword = source.keyword.toLowerCase();
  const graph = keyword === 'graph' || keyword === 'flowchart' || keyword.startsWith('statediagram');
  const header = graph ? [source.keyword, ...splitOutsideQuotes(source.headerRest)] : [`${source.keyword}${source.headerRest ? ` ${source.headerRest}` : ''}`];
  if (keyword === 'classdiagram-v2') header[0] = 'classDiagram';
  if (keyword === 'graph' || keyword === 'flowchart') {
    const written = source.headerRest ? header.splice(1, 1)[0]! : 'TD';
    if (!/^(TD|TB|LR|RL|BT)$/i.test(written)) throw new MermaidSyntaxError('a flowchart runs TD, TB, LR, RL or BT', `${source.keyword} ${written}`);
    header[0] = `${source.keyword} ${written}`;
  }
  // Statements may follow the header on its line (`graph TD; A-->B`), and are read as the body's.
  const [first, ...onHeaderLine] = header;
  const body = [...onHeaderLine, ...(graph ? source.lines.flatMap(splitOutsideQuotes) : keyword === 'erdiagram' ? erStatements(source.lines) : source.lines)];
  return [first!, ...(keyword === 'graph' || keyword === 'flowchart' ? body.map(spaceLinks) : body)];
}

/** The links Mermaid allows between names without spaces. */
const LINK = String.raw`<?(?:-->|-\.->|==>|---|-\.-|===)`;
const GLUED_BEFORE = new RegExp(String.raw`([\w\p{L}\])}"])(${LINK})`, 'gu');
const GLUED_AFTER = new RegExp(String.raw`(${LINK})(\|[^|]*\|)?(?=[\w\p{L}"])`, 'gu');

/**
 * `A-->B` is as good as `A --> B` to Mermaid, but beautiful-mermaid reads `A--` as a name (names
 * may hold hyphens); spaces around each link settle it. Quoted labels are left alone.
 */
function spaceLinks(statement: string): string {
  return statement
    .split(/("[^"]*")/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(GLUED_BEFORE, '$1 $2').replace(GLUED_AFTER, '$1$2 ')))
    .join('');
}

function splitOutsideQuotes(line: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let index = 0; index < line.length; index++) {
    if (line[index] === '"') quoted = !quoted;
    else if (line[index] === ';' && !quoted) {
      parts.push(line.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(line.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}
