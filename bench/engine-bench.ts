import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchCorpus, quireRender, ROOT, type BenchDocument } from './corpus.js';

export interface EngineFigures {
  name: string;
  bytes: number;
  pages: number;
  warmMs: number;
  msPerPage: number;
  pagesPerSecond: number;
  coldMs: number;
  /** Peak RSS of the `quire render` process (null where /usr/bin/time is missing). */
  coldPeakRssMb: number | null;
  /** Peak RSS of the warm process after all its renders. */
  peakRssMb: number;
  phases: { setup: number; render: number; serialize: number };
}

const RUNS = 5;
/** GNU time reports a child's peak RSS; its own start adds about a millisecond. */
const TIME = '/usr/bin/time';

/** Warm (in-process, after one render) and cold (CLI process start to file written) figures per document. */
export function benchEngine(filter?: RegExp): EngineFigures[] {
  const out = mkdtempSync(path.join(tmpdir(), 'quire-bench-'));
  return benchCorpus()
    .filter((doc) => !filter || filter.test(doc.name))
    .map((doc) => measure(doc, out));
}

function measure(doc: BenchDocument, out: string): EngineFigures {
  const child = JSON.parse(
    execFileSync(process.execPath, [path.join(ROOT, 'dist/bench/render-child.js'), doc.file, String(RUNS)], { encoding: 'utf8', maxBuffer: 1 << 20 }),
  ) as { times: number[]; pages: number; phases: EngineFigures['phases']; maxRssKb: number };
  const warmMs = median(child.times);
  const cold: number[] = [];
  const coldRss: number[] = [];
  const timed = existsSync(TIME);
  for (let i = 0; i < RUNS; i++) {
    const command = quireRender(doc.file, path.join(out, 'out.pdf'));
    const start = performance.now();
    const result = timed
      ? spawnSync(TIME, ['-f', 'maxrss %M', ...command], { encoding: 'utf8' })
      : spawnSync(command[0]!, command.slice(1), { encoding: 'utf8' });
    cold.push(performance.now() - start);
    if (result.status !== 0) throw new Error(`quire render ${doc.name} failed: ${result.stderr}`);
    const rss = /maxrss (\d+)/.exec(result.stderr)?.[1];
    if (rss) coldRss.push(Number(rss) / 1024);
  }
  return {
    name: doc.name,
    bytes: doc.bytes,
    pages: child.pages,
    warmMs,
    msPerPage: warmMs / child.pages,
    pagesPerSecond: (child.pages / warmMs) * 1000,
    coldMs: median(cold),
    coldPeakRssMb: coldRss.length > 0 ? Math.max(...coldRss) : null,
    peakRssMb: child.maxRssKb / 1024,
    phases: child.phases,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
