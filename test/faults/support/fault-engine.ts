/**
 * The engine with faults on demand, loaded by render workers in the fault suite. A document's
 * first line chooses the fault; every other document goes to the real engine.
 *
 *   crash            ends the worker thread abruptly
 *   busy             loops forever without yielding
 *   block:<fifo>     blocks in a system call (opening a FIFO nobody writes): native code that
 *                    terminating the worker cannot interrupt
 *   heap             allocates until the worker's heap limit is reached
 *   sleep:<ms>       waits, then renders the rest of the document
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RenderOptions, RenderResult } from '#engine/index.js';

export async function render(markdown: string, options: RenderOptions = {}): Promise<RenderResult> {
  const [first = '', ...rest] = markdown.split('\n');
  if (first === 'crash') process.exit(70);
  if (first === 'busy') for (;;);
  if (first.startsWith('block:')) readFileSync(first.slice('block:'.length));
  if (first === 'heap') {
    const hoard: number[][] = [];
    for (;;) hoard.push(new Array<number>(1_000_000).fill(hoard.length));
  }
  if (first.startsWith('sleep:')) {
    await sleep(Number(first.slice('sleep:'.length)));
    markdown = rest.join('\n');
  }
  const engine = await import('#engine/index.js');
  return engine.render(markdown, options);
}
