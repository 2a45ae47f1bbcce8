/**
 * `quire render a.md b.md --out-dir pdf/`: each file to its own PDF, as many at once as there
 * are cores, each in a worker thread of its own. A file that fails is reported and the others go
 * on; the summary says how many failed, and so does the exit code.
 */
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { CliError } from '../cli-error.js';
import { pdfNameFor, type RenderSettings } from './render-file.js';
import type { FileOutcome, FileTask } from './render-thread.js';
import { pages, seconds, StatusLine } from './status-line.js';

const THREAD = new URL('./render-thread.js', import.meta.url);
const BAR_WIDTH = 24;

export async function renderEachFile(inputs: string[], outDir: string, settings: RenderSettings): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const tasks = outputsFor(inputs, outDir).map(({ input, output }): FileTask => ({ input, output, settings }));
  const status = new StatusLine();
  const started = performance.now();
  const totals = { files: 0, pages: 0, warnings: 0, failed: 0 };
  const progress = () => `quire: ${bar(totals.files / tasks.length)} ${totals.files} of ${tasks.length} files`;

  const report = (task: FileTask, outcome: FileOutcome) => {
    totals.files++;
    if (!outcome.ok) {
      totals.failed++;
      status.print(`quire: ${task.input}: failed: ${outcome.error}`, progress());
      return;
    }
    totals.pages += outcome.pages;
    totals.warnings += outcome.warnings.length;
    // A warning that names its place in the file already (`a.md:3: front matter: …`) is not named twice.
    for (const warning of outcome.warnings)
      status.print(warning.startsWith(`${task.input}:`) ? `quire: warning: ${warning}` : `quire: ${task.input}: warning: ${warning}`);
    status.print(`quire: wrote ${task.output} (${pages(outcome.pages)}, ${seconds(outcome.ms)})`, progress());
  };

  status.show(progress());
  const queue = [...tasks];
  const threads = Math.min(availableParallelism(), tasks.length);
  await Promise.all(Array.from({ length: threads }, () => drain(queue, report)));
  status.clear();
  const failed = totals.failed === 0 ? '' : `, ${totals.failed} failed`;
  process.stderr.write(
    `quire: ${totals.files} files, ${pages(totals.pages)}, ${seconds(performance.now() - started)}, ${totals.warnings} warning${totals.warnings === 1 ? '' : 's'}${failed}\n`,
  );
  if (totals.failed > 0) process.exitCode = 1;
}

/** One worker renders tasks from the shared queue until it is empty. */
async function drain(queue: FileTask[], report: (task: FileTask, outcome: FileOutcome) => void): Promise<void> {
  const worker = new Worker(THREAD);
  try {
    for (let task = queue.shift(); task; task = queue.shift()) {
      const current = task;
      const outcome = await new Promise<FileOutcome>((resolve) => {
        const onExit = (code: number) => resolve({ ok: false, error: `the render stopped (exit ${code})`, crashed: true });
        const onError = (error: Error) => resolve({ ok: false, error: error.message, crashed: true });
        worker.once('exit', onExit).once('error', onError);
        worker.once('message', (message: FileOutcome) => {
          worker.off('exit', onExit).off('error', onError);
          resolve(message);
        });
        worker.postMessage(current);
      });
      report(current, outcome);
      // A thread that stopped takes no more files: a new one goes on with the queue.
      if (!outcome.ok && outcome.crashed) return drain(queue, report);
    }
  } finally {
    await worker.terminate();
  }
}

/** docs/a.md → pdf/a.pdf; two inputs that would write the same PDF are refused before any render. */
function outputsFor(inputs: string[], outDir: string): { input: string; output: string }[] {
  const seen = new Map<string, string>();
  return inputs.map((input) => {
    const output = path.join(outDir, pdfNameFor(path.basename(input)));
    const earlier = seen.get(output);
    if (earlier) throw new CliError(`${earlier} and ${input} would both be written to ${output}`);
    seen.set(output, input);
    return { input, output };
  });
}

function bar(fraction: number): string {
  const filled = Math.round(fraction * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
}
