/** A worker thread of `quire render --out-dir`: renders the files it is sent, one at a time. */
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { renderFile, type RenderSettings } from './render-file.js';

export interface FileTask {
  input: string;
  output: string;
  settings: RenderSettings;
}

/** `crashed`: the thread itself stopped (set by the main thread), not just this file's render. */
export type FileOutcome = { ok: true; pages: number; warnings: string[]; ms: number } | { ok: false; error: string; crashed?: boolean };

parentPort!.on('message', async (task: FileTask) => {
  const started = performance.now();
  let outcome: FileOutcome;
  try {
    const rendered = await renderFile(task.input, task.settings);
    writeFileSync(task.output, rendered.pdf);
    outcome = { ok: true, pages: rendered.pages, warnings: rendered.warnings, ms: performance.now() - started };
  } catch (error) {
    outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(outcome);
});
