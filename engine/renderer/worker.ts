/**
 * A renderer's worker thread: renders one task at a time as the host sends them, with the
 * engine's own `render` and `renderFiles`, and sends back the result or the error. Resources come
 * from the host (worker-loader.ts); the RenderCache of the host's last render with one is kept
 * here, so a document edited and rendered again reuses what did not change.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { render, renderFiles, type RenderCallOptions, type RenderResult } from '../render.js';
import { RenderCache } from '../render-cache.js';
import type { ResourceLoader } from '../resources/loader.js';
import type { HostMessage, LoaderRef, RenderTask, WorkerMessage } from './protocol.js';
import { errorData } from './transfer-errors.js';
import { HostLoaderError, HostLoads } from './worker-loader.js';

if (!parentPort) throw new Error('engine/renderer/worker.js runs in a worker thread started by createRenderer');
const port = parentPort;
const loads = new HostLoads(port);

/**
 * Past this share of its heap limit after a render, the worker asks to be replaced: a fresh one
 * costs its start, a worn one could fail the next large document for want of memory.
 */
const WORN_HEAP_SHARE = 0.5;

/** The cache of the last render that had one (at most one: each may hold a couple of hundred MB). */
let held: { key: number; cache: RenderCache } | undefined;

// A throw-away render loads the fonts and warms the engine before the thread says it is ready,
// so a thread started to replace a stopped one is ready to render at full speed.
await render('# Quire\n\nWarm-up.').catch(() => undefined);

port.on('message', (message: HostMessage) => {
  if (message.type === 'render') void run(message.job, message);
  else loads.answer(message);
});
port.postMessage({ type: 'ready' } satisfies WorkerMessage);

async function run(job: number, task: RenderTask): Promise<void> {
  const loaderFor = (ref: LoaderRef | undefined): ResourceLoader | undefined => (ref === null || ref === undefined ? undefined : loads.loader(job, ref));
  const loader = loaderFor(task.loader);
  if (task.cache !== null && held?.key !== task.cache) held = { key: task.cache, cache: new RenderCache() };
  const options: RenderCallOptions = { ...task.options, ...(loader && { loader }), ...(task.cache !== null && held && { cache: held.cache }) };
  try {
    const { sources } = task;
    const result =
      sources.kind === 'markdown'
        ? await render(sources.markdown, options)
        : await renderFiles(
            sources.files.map((file) => {
              const fileLoader = loaderFor(file.loader);
              return { markdown: file.markdown, path: file.path, ...(fileLoader && { loader: fileLoader }) };
            }),
            options,
          );
    // A copy in memory of its own, moved rather than copied again (a Buffer may share its memory with others).
    const pdf = new Uint8Array(result.pdf);
    const done: RenderResult = { ...result, pdf };
    port.postMessage({ type: 'done', job, result: done, worn: worn() } satisfies WorkerMessage, [pdf.buffer as ArrayBuffer]);
  } catch (error) {
    const data = errorData(error, error instanceof HostLoaderError ? error.loaderError : undefined);
    port.postMessage({ type: 'failed', job, error: data, worn: worn() } satisfies WorkerMessage);
  }
}

function worn(): boolean {
  const heap = getHeapStatistics();
  return heap.used_heap_size > heap.heap_size_limit * WORN_HEAP_SHARE;
}
