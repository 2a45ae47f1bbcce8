/**
 * Renders one document in a fresh process (the first render: cold caches), then `runs` more
 * times (warm), and prints the timings, page count and peak resident memory as JSON.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { folderLoader, render } from '../engine/index.js';

const [file, runsArg] = process.argv.slice(2);
const markdown = readFileSync(file!, 'utf8');
const runs = Number(runsArg ?? 5);
const times: number[] = [];
let firstMs = 0;
let pages = 0;
let phases = { setup: 0, render: 0, serialize: 0 };
for (let i = 0; i < runs + 1; i++) {
  const start = performance.now();
  const result = await render(markdown, { resources: 'lenient', loader: folderLoader(path.dirname(file!)) });
  const elapsed = performance.now() - start;
  if (i > 0) times.push(elapsed);
  else firstMs = elapsed;
  pages = result.pages;
  phases = result.timings;
}
process.stdout.write(JSON.stringify({ firstMs, times, pages, phases, maxRssKb: process.resourceUsage().maxRSS }));
