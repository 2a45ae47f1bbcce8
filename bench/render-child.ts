/**
 * Renders one document in a fresh process (the first render: cold caches), then `runs` more
 * times (warm), and prints the timings, page count and peak resident memory as JSON. With
 * `edits`, then `runs` renders more with a RenderCache, each of the document with a paragraph
 * edited anew (`editMs`), as `quire render --watch` renders a file as it is saved.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { folderLoader, render, RenderCache, type RenderOptions } from '#engine/index.js';
import { editedParagraph } from './corpus.js';

const [file, runsArg, mode] = process.argv.slice(2);
const markdown = readFileSync(file!, 'utf8');
const runs = Number(runsArg ?? 5);
const times: number[] = [];
let firstMs = 0;
let pages = 0;
let phases = { setup: 0, render: 0, serialize: 0 };
for (let i = 0; i < runs + 1; i++) {
  const start = performance.now();
  const result = await render(markdown, options());
  const elapsed = performance.now() - start;
  if (i > 0) times.push(elapsed);
  else firstMs = elapsed;
  pages = result.pages;
  phases = result.timings;
}
const editMs: number[] = [];
if (mode === 'edits') {
  const cache = new RenderCache();
  await render(markdown, options(cache));
  for (let i = 0; i < runs; i++) {
    const edited = editedParagraph(markdown, i);
    const start = performance.now();
    await render(edited, options(cache));
    editMs.push(performance.now() - start);
  }
}
process.stdout.write(JSON.stringify({ firstMs, times, editMs, pages, phases, maxRssKb: process.resourceUsage().maxRSS }));

function options(cache?: RenderCache): RenderOptions {
  return { resources: 'lenient', loader: folderLoader(path.dirname(file!)), ...(cache && { cache }) };
}
