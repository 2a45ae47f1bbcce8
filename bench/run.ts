/**
 * `npm run bench`: renders the corpus and prints per document pages, warm and cold times,
 * ms per page, pages per second and peak RSS, then the service's renders per second over HTTP.
 * `--only REGEX` limits the documents; `--engine` or `--service` runs one half (`--clients N`
 * requests in flight at once, one per core unless given; `--clients 2,3,4` measures each in turn,
 * for the throughput a latency bound allows); `--peers` compares cold and warm times
 * with Typst, md-to-pdf (Chromium) and Pandoc + wkhtmltopdf when they are installed (`--runs N`
 * counted runs of each, 5 unless given);
 * `--fairness` measures one account's latency while another floods the service (`--samples N`
 * victim requests per state, 150 unless given); `--scale` compares PostgreSQL with SQLite and one,
 * two and three service instances on one PostgreSQL database; `--editor` runs only the editor's
 * preview latency (also part of the default run).
 */
import { benchEditor, type EditorFigures } from './editor.js';
import { benchEngine, type EngineFigures } from './engine-bench.js';
import { benchFairness, DEFAULT_SAMPLES, type FairnessFigures } from './fairness.js';
import { benchService, type ServiceFigures } from './service.js';
import { benchRich, type RichFigures } from './rich.js';
import { benchScale, type ScaleFigures } from './scale.js';
import { benchPeers, DEFAULT_RUNS, nodeStartMs, peersInstalled, type PeerFigures } from './peers.js';

const args = process.argv.slice(2);
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? new RegExp(args[onlyIndex + 1]!) : undefined;
const peersOnly = args.includes('--peers');
const fairnessOnly = args.includes('--fairness');
const scaleOnly = args.includes('--scale');
const samplesIndex = args.indexOf('--samples');
const samples = samplesIndex >= 0 ? Number(args[samplesIndex + 1]) : DEFAULT_SAMPLES;
const runsIndex = args.indexOf('--runs');
const runs = runsIndex >= 0 ? Number(args[runsIndex + 1]) : DEFAULT_RUNS;
if (!(Number.isInteger(runs) && runs > 0)) {
  console.error('--runs takes a positive whole number');
  process.exit(2);
}
const clientsIndex = args.indexOf('--clients');
const clients = clientsIndex >= 0 ? (args[clientsIndex + 1] ?? '').split(',').map(Number) : [undefined];
if (clients.some((count) => count !== undefined && !(Number.isInteger(count) && count > 0))) {
  console.error('--clients takes a positive whole number, or several joined by commas (2,3,4)');
  process.exit(2);
}
const runEngine = !args.includes('--service') && !peersOnly && !fairnessOnly && !scaleOnly && !args.includes('--editor');
const editorOnly = args.includes('--editor');
const runService = !args.includes('--engine') && !peersOnly && !fairnessOnly && !scaleOnly && !editorOnly;

if (runEngine) printEngine(benchEngine(only));
if (runEngine && !only) printRich(benchRich());
if (peersOnly) printPeers(benchPeers(runs), runs);
if (runService) {
  const figures: ServiceFigures[] = [];
  for (const count of clients) figures.push(await benchService(count));
  if (figures.length === 1) printService(figures[0]!);
  else printServiceByClients(figures);
}
if ((runService && !only) || editorOnly) printEditor(await benchEditor());
if (fairnessOnly) printFairness(await benchFairness(samples));
if (scaleOnly) printScale(await benchScale());

function printEngine(figures: EngineFigures[]): void {
  const header = ['document', 'KB', 'pages', 'warm ms', 'ms/page', 'pages/s', 'cold ms', 'cold peak MB', 'warm peak MB', 'setup/render/serialize ms'];
  const lines = figures.map((row) => [
    row.name,
    (row.bytes / 1024).toFixed(1),
    String(row.pages),
    row.warmMs.toFixed(1),
    row.msPerPage.toFixed(2),
    row.pagesPerSecond.toFixed(0),
    row.coldMs.toFixed(0),
    row.coldPeakRssMb === null ? '-' : row.coldPeakRssMb.toFixed(0),
    row.peakRssMb.toFixed(0),
    `${row.phases.setup}/${row.phases.render}/${row.phases.serialize}`,
  ]);
  printTable(header, lines);
}

function printPeers(figures: PeerFigures[], runs: number): void {
  const installed = peersInstalled();
  console.log(
    `peers installed: ${installed.length > 0 ? installed.join(', ') : 'none (see bench/README.md)'}; cold, process start to file written, median of ${runs}; Quire ÷ it: the median of each round's ratio`,
  );
  console.log(`Node.js alone (node -e 0) starts and exits in ${nodeStartMs().toFixed(0)} ms here (every converter starts without NODE_EXTRA_CA_CERTS)`);
  const mb = (run: { peakMb: number | null }) => (run.peakMb === null ? '-' : run.peakMb.toFixed(0));
  const names = figures[0]?.peers.map((peer) => peer.name) ?? [];
  printTable(
    ['document', 'pages', 'Quire ms', 'Quire MB', ...names.flatMap((name) => [`${name} pages`, 'ms', 'MB', 'Quire ÷ it'])],
    figures.map((row) => [
      row.document,
      String(row.quire.pages),
      row.quire.ms.toFixed(0),
      mb(row.quire),
      ...row.peers.flatMap(({ run, ratio }) =>
        run === null ? ['-', '-', '-', '-'] : [pagesAgainst(run.pages, row.quire.pages), run.ms.toFixed(0), mb(run), ratio!.toFixed(2)],
      ),
    ]),
  );
  const warm = figures.flatMap((row) => row.peers.filter((peer) => peer.warm !== null).map((peer) => ({ row, peer, warm: peer.warm! })));
  if (warm.length === 0) return;
  console.log(
    `\nwarm, in one process (median of ${runs}): fresh — Quire renders the document again, the peer compiles it with its caches emptied; after an edit — each run adds other words to the paragraph nearest the middle, Quire rendering with a RenderCache (as --watch does), the peer with its memoisation`,
  );
  printTable(
    ['document', 'peer', 'Quire fresh ms', 'peer fresh ms', 'Quire after edit ms', 'peer after edit ms', 'ratio fresh', 'ratio after edit'],
    warm.map(({ row, peer, warm: times }) => [
      row.document,
      peer.name,
      row.quire.warm.freshMs.toFixed(0),
      times.freshMs.toFixed(0),
      row.quire.warm.afterEditMs.toFixed(0),
      times.incrementalMs.toFixed(0),
      (row.quire.warm.freshMs / times.freshMs).toFixed(2),
      (row.quire.warm.afterEditMs / times.incrementalMs).toFixed(2),
    ]),
  );
}

/** A peer's page count, flagged when it is more than 10% from Quire's (the documents are then not comparable). */
function pagesAgainst(pages: number, quirePages: number): string {
  return Math.abs(pages - quirePages) > quirePages * 0.1 ? `${pages} (!)` : String(pages);
}

function printRich(figures: RichFigures): void {
  console.log(`\nrich document (50 formulas, 10 diagrams, 30 code blocks): ${figures.totalMs.toFixed(0)} ms cold, in a fresh process, ${figures.pages} pages`);
  printTable(
    ['module', 'CPU ms'],
    figures.shares.map((share) => [share.module, share.ms.toFixed(0)]),
  );
}

function printService(figures: ServiceFigures): void {
  console.log(
    `\nservice: ${figures.rps.toFixed(1)} renders/s over HTTP, p50 ${figures.p50.toFixed(0)} ms, p99 ${figures.p99.toFixed(0)} ms, ` +
      `${figures.requests} requests, ${figures.failures} failures, ${figures.concurrency} clients, ${figures.workers} workers, service overhead p50 ${figures.serviceOverheadP50.toFixed(1)} ms`,
  );
  printTable(
    ['document', 'KB', 'p50 ms'],
    figures.documents.map((doc) => [doc.name, (doc.bytes / 1024).toFixed(1), doc.p50.toFixed(0)]),
  );
}

function printServiceByClients(figures: ServiceFigures[]): void {
  console.log(`\nservice: README-sized renders over HTTP, ${figures[0]!.workers} workers, 10 s for each number of requests in flight`);
  printTable(
    ['clients', 'renders/s', 'p50 ms', 'p99 ms', 'failures', 'service overhead p50 ms'],
    figures.map((row) => [
      String(row.concurrency),
      row.rps.toFixed(1),
      row.p50.toFixed(0),
      row.p99.toFixed(0),
      String(row.failures),
      row.serviceOverheadP50.toFixed(1),
    ]),
  );
}

function printEditor(figures: EditorFigures): void {
  console.log('\neditor: an edit on one page → its preview answered with that page redrawn, over HTTP');
  printTable(
    ['document', 'pages', 'first preview ms', 'edit p50 ms', 'edit max ms', 'pages redrawn', 'rows drawn', 'target ms'],
    figures.documents.map((row) => [
      row.name,
      String(row.pages),
      row.firstMs.toFixed(0),
      row.editP50.toFixed(0),
      row.editMax.toFixed(0),
      String(row.redrawn),
      Number.isFinite(row.bandRows) ? String(row.bandRows) : 'whole page',
      String(row.targetMs),
    ]),
  );
}

function printScale(figures: ScaleFigures): void {
  console.log('store time per render (authenticate, request token, render slot, reserve, charge, slot back):');
  printTable(
    ['store', 'clients', 'p50 ms', 'p99 ms'],
    figures.store.map((row) => [row.store, String(row.clients), row.p50.toFixed(2), row.p99.toFixed(2)]),
  );
  console.log(`\nrenders per second over HTTP, README-sized documents, one worker per instance, ${figures.cores} cores on this machine:`);
  const base = figures.http[0]!.rps;
  printTable(
    ['instances', 'cores', 'renders/s', 'vs one', 'p50 ms', 'p99 ms', 'service ms p50', 'failures'],
    figures.http.map((row) => [
      row.label,
      row.cpus,
      row.rps.toFixed(1),
      `${(row.rps / base).toFixed(2)}x`,
      row.p50.toFixed(0),
      row.p99.toFixed(0),
      row.overheadP50.toFixed(1),
      String(row.failures),
    ]),
  );
}

function printFairness(figures: FairnessFigures): void {
  console.log(`victim's latency to its PDF, one request at a time, idle and while one other account floods; ${figures.workers} workers`);
  for (const scenario of figures.scenarios) {
    console.log(`\n${scenario.name}`);
    const row = (label: string, latency: FairnessFigures['scenarios'][number]['idle']) => [
      label,
      latency.p50.toFixed(0),
      latency.p90.toFixed(0),
      latency.p99.toFixed(0),
      latency.max.toFixed(0),
      String(latency.samples),
      String(latency.retries),
    ];
    printTable(['victim', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'samples', 'retries'], [row('idle', scenario.idle), row('flooded', scenario.flooded)]);
    const flooder = Object.entries(scenario.flooderAnswers)
      .map(([answer, count]) => `${count} × ${answer}`)
      .join(', ');
    console.log(`p99 flooded / idle: ${(scenario.flooded.p99 / scenario.idle.p99).toFixed(2)}x; the flooder meanwhile: ${flooder}`);
  }
}

function printTable(header: string[], lines: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  console.log(format(header));
  for (const line of lines) console.log(format(line));
}
