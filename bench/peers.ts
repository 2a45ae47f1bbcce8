import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchCorpus, quireRender, ROOT, type BenchDocument } from './corpus.js';
import { median } from './engine-bench.js';

/** The converters a user would pick instead of Quire, run when installed (see bench/README.md). */
interface Peer {
  name: string;
  available(): boolean;
  /** Command line converting `input` (Markdown) into `output` (PDF). */
  command(input: string, output: string): string[];
}

const PEERS_DIR = path.join(ROOT, '.bench/peers');
const CHROMIUM = '/usr/bin/chromium';

const PEERS: Peer[] = [
  {
    name: 'md-to-pdf (Chromium)',
    available: () => existsSync(path.join(PEERS_DIR, 'node_modules/.bin/md-to-pdf')) && existsSync(CHROMIUM),
    // md-to-pdf writes file.pdf beside file.md; it has no output option.
    command: (input) => [
      path.join(PEERS_DIR, 'node_modules/.bin/md-to-pdf'),
      input,
      '--launch-options',
      JSON.stringify({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] }),
    ],
  },
  {
    name: 'Pandoc + wkhtmltopdf',
    available: () => onPath('pandoc') && onPath('wkhtmltopdf'),
    command: (input, output) => ['pandoc', input, '--pdf-engine=wkhtmltopdf', '-o', output],
  },
];

export interface PeerFigures {
  document: string;
  /** Cold wall milliseconds (median of the runs) for Quire's CLI and each available peer. */
  quireMs: number;
  peers: Array<{ name: string; ms: number | null; ratio: number | null }>;
}

const RUNS = 5;
/** The documents compared: the smallest README, a typical one, and the CommonMark spec. */
const DOCUMENTS = /^(commonmark-spec|readme:@types\/node|readme:bidi-js)$/;

/**
 * Cold process start to file written, for Quire and each installed peer, on the same documents
 * in one run. The converters take turns, run by run, after one round that is not counted (it
 * fills the file cache): a machine whose speed drifts during the run slows them all alike.
 */
export function benchPeers(): PeerFigures[] {
  const available = PEERS.filter((peer) => peer.available());
  const out = mkdtempSync(path.join(tmpdir(), 'quire-peers-'));
  return benchCorpus()
    .filter((doc) => DOCUMENTS.test(doc.name))
    .map((doc) => {
      const input = copyAsMarkdown(doc, out);
      const quire = quireRender(input, path.join(out, 'quire.pdf'));
      const [quireMs, ...peerMs] = timeInTurns([quire, ...available.map((peer) => peer.command(input, path.join(out, 'peer.pdf')))]);
      const peers = PEERS.map((peer) => {
        const ms = available.includes(peer) ? peerMs[available.indexOf(peer)]! : null;
        return { name: peer.name, ms, ratio: ms === null ? null : ms / quireMs! };
      });
      return { document: doc.name, quireMs: quireMs!, peers };
    });
}

/**
 * How long Node.js itself takes to start and stop here (`node -e 0`): the floor under any
 * Node CLI's cold time, Quire's and md-to-pdf's alike. NODE_EXTRA_CA_CERTS, when set, makes every
 * Node process parse that certificate bundle at start.
 */
export function nodeStartMs(): number {
  return timeRuns([process.execPath, '-e', '0']);
}

export function peersInstalled(): string[] {
  return PEERS.filter((peer) => peer.available()).map((peer) => peer.name);
}

function timeRuns(command: string[]): number {
  return timeInTurns([command])[0]!;
}

/** Median wall milliseconds of each command, run in turns: one uncounted round, then RUNS counted. */
function timeInTurns(commands: string[][]): number[] {
  const times = commands.map((): number[] => []);
  for (let round = 0; round <= RUNS; round++) {
    commands.forEach((command, k) => {
      const start = performance.now();
      const result = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', timeout: 120_000 });
      if (result.status !== 0) throw new Error(`${path.basename(command[0]!)} failed: ${result.stderr?.slice(0, 500)}`);
      if (round > 0) times[k]!.push(performance.now() - start);
    });
  }
  return times.map(median);
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
