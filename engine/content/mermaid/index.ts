import { QuireError, throwIfAborted } from '../../errors.js';
import type { Drawing } from '../../drawing/drawing.js';
import type { ContentOptions, ContentResult } from '../result.js';
import { checkSize } from './bounds.js';
import { diagramColors, type DiagramColors } from './colors.js';
import { readSource, type MermaidSource } from './source.js';

type Renderer = (source: MermaidSource, colors: DiagramColors) => Drawing | Promise<Drawing>;

const beautiful = async () => (await import('./beautiful.js')).renderWithBeautifulMermaid;

/** Diagram keywords (lower case) and the renderer each loads on first use. */
const RENDERERS: Record<string, () => Promise<Renderer>> = {
  flowchart: beautiful,
  graph: beautiful,
  sequencediagram: beautiful,
  classdiagram: beautiful,
  'classdiagram-v2': beautiful,
  statediagram: beautiful,
  'statediagram-v2': beautiful,
  erdiagram: beautiful,
  xychart: beautiful,
  'xychart-beta': beautiful,
  pie: async () => (await import('./pie.js')).renderPie,
  gantt: async () => (await import('./gantt.js')).renderGantt,
  timeline: async () => (await import('./timeline.js')).renderTimeline,
  mindmap: async () => (await import('./mindmap.js')).renderMindmap,
  gitgraph: async () => (await import('./git-graph.js')).renderGitGraph,
  journey: async () => (await import('./journey.js')).renderJourney,
  quadrantchart: async () => (await import('./quadrant.js')).renderQuadrantChart,
};

/**
 * Mermaid source → a vector diagram whose labels stay text. An unsupported or unreadable diagram
 * answers why (the builder shows the source as code with that note); a diagram too large to
 * draw quickly throws its named renderer bound.
 */
export async function renderMermaid(source: string, options: ContentOptions): Promise<ContentResult> {
  throwIfAborted(options.signal);
  const read = readSource(source);
  if (!read) return { ok: false, reason: 'the diagram is empty' };
  checkSize(source, read.lines.length);
  const loader = RENDERERS[read.keyword.toLowerCase()];
  if (!loader) return { ok: false, reason: `Mermaid "${read.keyword}" diagrams are not supported` };
  try {
    const render = await loader();
    const drawing = await render(read, diagramColors(options.theme));
    return { ok: true, drawing, alt: source.trim(), caption: read.title };
  } catch (error) {
    if (error instanceof QuireError) throw error;
    return { ok: false, reason: reasonOf(error) };
  }
}

/** A parser's complaint, short enough for a note under the code. */
function reasonOf(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();
  return message.length > 160 ? `${message.slice(0, 157)}…` : message || 'the diagram could not be read';
}
