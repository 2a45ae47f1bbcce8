import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchCorpus, quireRender, ROOT, type BenchDocument } from './corpus.js';
import { median } from './engine-bench.js';
import { TYPST_MODULE } from './typst-compile.js';
import { markdownToTypst } from './typst-markup.js';

/** The converters a user would pick instead of Quire, run when installed (see bench/README.md). */
interface Peer {
  name: string;
  available(): boolean;
  /** The file the peer reads, made from the Markdown file before the clock starts (default: the Markdown). */
  prepare?(markdown: string): string;
  /** Command line converting `input` (as prepared) into `output` (PDF). */
  command(input: string, output: string): string[];
  /** Where the PDF is written, when not `output` (a peer without an output option). */
  writes?(input: string): string;
  /** Warm times in one process, when the peer can be driven so. */
  warm?(input: string, runs: number): { freshMs: number; incrementalMs: number };
}

const PEERS_DIR = path.join(ROOT, '.bench/peers');
const TYPST_RUNNER = path.join(ROOT, 'dist/bench/typst-compile.js');
/** The Pandoc manual, when put there (see bench/README.md): a long manual nobody here wrote. */
const PANDOC_MANUAL = path.join(ROOT, '.bench/corpus/pandoc-manual.md');
/** GNU time reports a child's peak RSS. */
const TIME = '/usr/bin/time';
/** Every converter starts as `quire render` does, without Node parsing extra certificates at start (see bench/README.md). */
const WITHOUT_EXTRA_CERTIFICATES = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_EXTRA_CA_CERTS'));
const CHROMIUM = '/usr/bin/chromium';

const PEERS: Peer[] = [
  {
    name: 'md-to-pdf (Chromium)',
    available: () => existsSync(path.join(PEERS_DIR, 'node_modules/.bin/md-to-pdf')) && existsSync(CHROMIUM),
    // md-to-pdf writes file.pdf beside file.md; it has no output option.
    writes: (input) => input.replace(/\.md$/, '.pdf'),
    command: (input) => [
      path.join(PEERS_DIR, 'node_modules/.bin/md-to-pdf'),
      input,
      '--launch-options',
      JSON.stringify({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
      }),
    ],
  },
  {
    name: 'Typst',
    available: () => existsSync(TYPST_MODULE),
    // Converted by bench/typst-markup.ts (Debian's Pandoc 2.17 has no Typst writer), set like Quire's page.
    prepare: (markdown) => {
      const typ = markdown.replace(/\.md$/, '.typ');
      writeFileSync(typ, markdownToTypst(readFileSync(markdown, 'utf8')));
      return typ;
    },
    command: (input, output) => [process.execPath, TYPST_RUNNER, 'cold', input, output],
    warm: (input, runs) =>
      JSON.parse(execFileSync(process.execPath, [TYPST_RUNNER, 'warm', input, String(runs)], { encoding: 'utf8' })) as {
        freshMs: number;
        incrementalMs: number;
      },
  },
  {
    name: 'Pandoc + wkhtmltopdf',
    available: () => onPath('pandoc') && onPath('wkhtmltopdf'),
    command: (input, output) => ['pandoc', input, '--pdf-engine=wkhtmltopdf', '-o', output],
  },
];

export interface Run {
  /** Median wall milliseconds, process start to file written. */
  ms: number;
  /** Each counted run's milliseconds, round by round. */
  times: number[];
  /** Highest peak resident memory of the runs (null without GNU time). */
  peakMb: number | null;
  pages: number;
}

export interface PeerFigures {
  document: string;
  quire: Run & { warm: { freshMs: number; afterEditMs: number } };
  /**
   * `ratio`: Quire's time ÷ the peer's (below 1: Quire is faster), the median of the rounds' own
   * ratios: the two ran back to back in each round, so a host whose speed drifts between rounds
   * moves both sides of each ratio alike.
   */
  peers: Array<{ name: string; run: Run | null; ratio: number | null; warm: { freshMs: number; incrementalMs: number } | null }>;
}

/** Counted runs of each converter, unless `--runs N` says otherwise. */
export const DEFAULT_RUNS = 5;
/** The peers' documents: a one-page README, a five-page one, the CommonMark spec, the Pandoc manual. */
const DOCUMENTS = /^(readme:@types\/node|readme:express|commonmark-spec)$/;

function peerCorpus(): BenchDocument[] {
  const docs = benchCorpus().filter((doc) => DOCUMENTS.test(doc.name));
  const express = path.join(ROOT, 'node_modules/express/Readme.md');
  if (!docs.some((doc) => doc.name === 'readme:express') && existsSync(express))
    docs.splice(1, 0, { name: 'readme:express', file: express, bytes: statSync(express).size });
  if (existsSync(PANDOC_MANUAL)) docs.push({ name: 'pandoc-manual', file: PANDOC_MANUAL, bytes: statSync(PANDOC_MANUAL).size });
  return docs;
}

/**
 * Cold process start to file written, for Quire and each installed peer, on the same documents
 * in one run, with each one's peak memory and page count; then warm figures in one process. The
 * converters take turns, run by run, after one round that is not counted (it fills the file
 * cache): a machine whose speed drifts during the run slows them all alike.
 */
export function benchPeers(runs = DEFAULT_RUNS): PeerFigures[] {
  const available = PEERS.filter((peer) => peer.available());
  const out = mkdtempSync(path.join(tmpdir(), 'quire-peers-'));
  return peerCorpus().map((doc) => {
    const input = copyAsMarkdown(doc, out);
    const inputs = available.map((peer) => peer.prepare?.(input) ?? input);
    const outputs = ['quire', ...available.map((_, k) => `peer-${k}`)].map((name) => path.join(out, `${name}.pdf`));
    const commands = [quireRender(input, outputs[0]!), ...available.map((peer, k) => peer.command(inputs[k]!, outputs[k + 1]!))];
    const written = [outputs[0]!, ...available.map((peer, k) => peer.writes?.(inputs[k]!) ?? outputs[k + 1]!)];
    const timed = timeInTurns(commands, runs).map((run, k) => ({ ...run, pages: pageCount(written[k]!) }));
    const quire = timed[0]!;
    const peers = PEERS.map((peer) => {
      const k = available.indexOf(peer);
      const run = k < 0 ? null : timed[k + 1]!;
      return {
        name: peer.name,
        run,
        ratio: run === null ? null : median(quire.times.map((ms, round) => ms / run.times[round]!)),
        warm: k >= 0 && peer.warm ? peer.warm(inputs[k]!, runs) : null,
      };
    });
    return { document: doc.name, quire: { ...quire, warm: quireWarm(input, runs) }, peers };
  });
}

/**
 * Quire warm in one process (medians of five after a first): the document rendered again as it
 * is, and rendered after an edit with a RenderCache (each edit new), as `--watch` renders.
 */
function quireWarm(input: string, runs: number): { freshMs: number; afterEditMs: number } {
  const child = JSON.parse(
    execFileSync(process.execPath, [path.join(ROOT, 'dist/bench/render-child.js'), input, String(runs), 'edits'], { encoding: 'utf8', maxBuffer: 1 << 20 }),
  ) as { times: number[]; editMs: number[] };
  return { freshMs: median(child.times), afterEditMs: median(child.editMs) };
}

function pageCount(pdf: string): number {
  const info = spawnSync('pdfinfo', [pdf], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info.stdout ?? '')?.[1] ?? NaN);
}

/** How long Node.js itself takes to start and stop here (`node -e 0`): the floor under any Node CLI's cold time, Quire's and the peers' alike. */
export function nodeStartMs(): number {
  return timeInTurns([[process.execPath, '-e', '0']], DEFAULT_RUNS)[0]!.ms;
}

export function peersInstalled(): string[] {
  return PEERS.filter((peer) => peer.available()).map((peer) => peer.name);
}

/** Wall milliseconds and peak memory of each command, run in turns: one uncounted round, then `runs` counted. */
function timeInTurns(commands: string[][], runs: number): Array<Omit<Run, 'pages'>> {
  const times = commands.map((): number[] => []);
  const peaks = commands.map((): number[] => []);
  const timed = existsSync(TIME);
  for (let round = 0; round <= runs; round++) {
    commands.forEach((command, k) => {
      const start = performance.now();
      const result = timed
        ? spawnSync(TIME, ['-f', 'maxrss %M', ...command], { encoding: 'utf8', timeout: 120_000, env: WITHOUT_EXTRA_CERTIFICATES })
        : spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', timeout: 120_000, env: WITHOUT_EXTRA_CERTIFICATES });
      if (result.status !== 0) throw new Error(`${path.basename(command[0]!)} failed: ${result.stderr?.slice(0, 500)}`);
      if (round === 0) return;
      times[k]!.push(performance.now() - start);
      const rss = /maxrss (\d+)/.exec(result.stderr ?? '')?.[1];
      if (rss) peaks[k]!.push(Number(rss) / 1024);
    });
  }
  return times.map((counted, k) => ({ ms: median(counted), times: counted, peakMb: peaks[k]!.length > 0 ? Math.max(...peaks[k]!) : null }));
}

/**
 * Every converter gets the same file: named `.md` (peers pick their parser by extension) and
 * without YAML front matter, which md-to-pdf cannot read when it closes with `...` (the spec's).
 */
function copyAsMarkdown(doc: BenchDocument, dir: string): string {
  const file = path.join(dir, `${doc.name.replace(/[^a-z0-9]+/gi, '-')}.md`);
  writeFileSync(file, readFileSync(doc.file, 'utf8').replace(/^---\r?\n[\s\S]*?\n(---|\.\.\.)[ \t]*\r?\n/, ''));
  return file;
}

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}
