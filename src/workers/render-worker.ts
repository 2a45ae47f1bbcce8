/**
 * A render worker: loads the engine once, then renders one task at a time as the pool sends them.
 * Runs in a worker thread, so a long render never blocks the service's event loop.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import {
  EmptyDocumentError,
  FrontMatterError,
  InvalidOptionError,
  PageLimitError,
  RendererBoundError,
  RenderTimeoutError,
  ResourceBudgetError,
  ResourceError,
} from '@quire/engine';
import type { render as engineRender, renderPreview as enginePreview } from '@quire/engine';
import { RemoteLoader, TooManyRemoteResourcesError } from '../net/remote-loader.js';
import type { EngineFailure, PreviewAsk, RenderTask, TaskReply, WorkerReply, WorkerSetup } from './protocol.js';

const port = parentPort!;
const setup = workerData as WorkerSetup;
const { render, renderPreview } = (await import(setup.engineModule)) as { render: typeof engineRender; renderPreview?: typeof enginePreview };

// One throw-away render loads fonts and warms caches before the first real task is timed.
await render('# Quire\n\nWarm-up.', {}).catch(() => undefined);

port.on('message', (task: RenderTask) => {
  void run(task).then(({ reply, transfer }) => port.postMessage({ ...reply, worn: worn() } satisfies WorkerReply, transfer));
});

/**
 * Past this share of its heap limit after a task, a worker asks to be replaced: a fresh worker
 * costs a second of start-up, a worn one could fail the next large document for want of memory.
 */
const WORN_HEAP_SHARE = 0.5;

function worn(): boolean {
  const heap = getHeapStatistics();
  return heap.used_heap_size > heap.heap_size_limit * WORN_HEAP_SHARE;
}
port.postMessage({ type: 'ready' } satisfies WorkerReply);

async function run(task: RenderTask): Promise<{ reply: TaskReply; transfer: ArrayBuffer[] }> {
  // Without net settings the engine's default loader refuses every remote resource (data: URIs always work).
  const loader =
    setup.net &&
    new RemoteLoader({
      settings: setup.net,
      fetchId: task.fetchId,
      enabled: task.remoteResources,
      budgetBytes: task.resourceBytes,
    });
  try {
    if (task.preview) return await preview(task, task.preview, loader);
    const result = await render(task.markdown, {
      features: task.features,
      language: task.language,
      resources: task.resources,
      limits: { maxPages: task.maxPages, resourceBytes: task.resourceBytes },
      ...(loader && { loader }),
    });
    const pdf = result.pdf.slice(); // an own buffer, safe to transfer
    const output = { pdf, pages: result.pages, timings: result.timings, resources: result.resources, remoteRequests: loader?.requests ?? 0 };
    return {
      reply: { type: 'done', output },
      transfer: [pdf.buffer as ArrayBuffer],
    };
  } catch (error) {
    return { reply: { type: 'failed', failure: classify(error) }, transfer: [] };
  }
}

/** The editor's preview: lenient, so a missing image is a placeholder and a warning, never a blank page. */
async function preview(task: RenderTask, ask: PreviewAsk, loader: RemoteLoader | undefined): Promise<{ reply: TaskReply; transfer: ArrayBuffer[] }> {
  if (!renderPreview) throw new Error('this engine module draws no previews');
  const result = await renderPreview(task.markdown, {
    features: task.features,
    language: task.language,
    resources: 'lenient',
    limits: { maxPages: task.maxPages, resourceBytes: task.resourceBytes },
    knownPages: ask.knownPages,
    focusPage: ask.focusPage,
    shownPages: ask.shownPages,
    ...(loader && { loader }),
  });
  const pages = result.pages.map((page) => ({ ...page, png: page.png && page.png.slice() }));
  const output = {
    pdf: new Uint8Array(0),
    preview: { pages, warnings: result.warnings },
    pages: pages.length,
    timings: result.timings,
    resources: { total: 0, failed: [], bytes: 0, digest: '' },
    remoteRequests: loader?.requests ?? 0,
  };
  return { reply: { type: 'done', output }, transfer: pages.flatMap((page) => (page.png ? [page.png.buffer as ArrayBuffer] : [])) };
}

function classify(error: unknown): EngineFailure {
  if (error instanceof PageLimitError) return { kind: 'page_limit', pagesReached: error.pagesReached };
  if (error instanceof RenderTimeoutError) return { kind: 'timeout' };
  if (error instanceof RendererBoundError) return { kind: 'renderer_bound', bound: error.bound };
  if (error instanceof ResourceBudgetError) return { kind: 'resource_budget' };
  if (error instanceof ResourceError) return { kind: 'resource', resourceId: error.resourceId, reason: error.reason };
  if (error instanceof TooManyRemoteResourcesError) return { kind: 'too_many_remote', limit: error.limit };
  if (error instanceof EmptyDocumentError) return { kind: 'empty_document' };
  if (error instanceof InvalidOptionError) return { kind: 'invalid_option', key: error.key, message: error.message };
  if (error instanceof FrontMatterError) return { kind: 'document', message: error.message };
  if (error instanceof RangeError && /call stack/i.test(error.message)) return { kind: 'renderer_bound', bound: 'DepthLimit' };
  return { kind: 'engine', detail: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
