/**
 * `quire render`: the engine as a tool — one file to one PDF, several joined into one or each to
 * its own (--out-dir), or one file followed as it is saved (--watch).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CliError } from './cli-error.js';
import { yieldHelperThreads } from './helper-threads.js';
import { parseRenderArguments, type RenderArguments } from './render/arguments.js';
import { commonFolder, pdfNameFor, renderFile, renderJoined, type RenderSettings } from './render/render-file.js';
import { pages, RemoteProgress, StatusLine } from './render/status-line.js';
import { watchFile } from './render/watch-file.js';

export async function renderCommand(argv: string[]): Promise<void> {
  yieldHelperThreads();
  const args = parseRenderArguments(argv);
  const settings: RenderSettings = {
    offline: args.offline,
    resources: args.resources,
    options: args.options,
    config: args.config,
    sets: args.sets,
    encoding: args.encoding,
    maxRemote: args.maxRemote,
    maxRemoteBytes: args.maxRemoteBytes,
    fonts: args.fonts,
    root: path.resolve(args.root ?? commonFolder(args.inputs)),
  };
  // Loaded only for --out-dir: its worker threads' module is a few milliseconds of every start.
  if (args.outDir !== null) return (await import('./render/each-file.js')).renderEachFile(args.inputs, args.outDir, settings);
  const [input] = args.inputs as [string];
  const output = outputOf(input, args);
  if (args.watch) {
    if (output === null) throw new CliError('--watch writes a file each time: name it with -o out.pdf, not -');
    return watchFile(input, output, settings);
  }

  const status = new StatusLine();
  const fetching = { ...settings, progress: new RemoteProgress(status, input === '-' ? 'standard input' : input, args.progress) };
  const rendered = args.inputs.length > 1 ? await renderJoined(args.inputs, fetching) : await renderFile(input, fetching);
  status.clear();
  for (const warning of rendered.warnings) process.stderr.write(`quire: warning: ${warning}\n`);
  if (output === null) {
    process.stdout.write(rendered.pdf);
  } else {
    // Synchronous: a one-shot command has nothing to do meanwhile, and skips the thread pool's round trips.
    writeFileSync(output, rendered.pdf);
    process.stderr.write(`quire: wrote ${output} (${pages(rendered.pages)})\n`);
  }
  exitWhenWritten();
}

/**
 * The PDF's file, or null for standard output: `-o -`, or Markdown from standard input with no
 * -o — then only when standard output is not a terminal, which PDF bytes would garble.
 */
function outputOf(input: string, args: RenderArguments): string | null {
  if (args.output === '-') return null;
  if (args.output !== null) return args.output;
  if (input !== '-') return pdfNameFor(input);
  if (process.stdout.isTTY) throw new CliError('standard output is a terminal: name the PDF with -o out.pdf, or redirect it (quire render - > out.pdf)');
  return null;
}

/**
 * Ends the process once what it wrote has reached the system. Left to itself, Node first waits
 * for V8's background work to run out, optimising compiles still queued for code that will not
 * run again: 10 to 35 ms of a cold render of a few pages.
 */
function exitWhenWritten(): void {
  let streams = 2;
  const written = () => {
    if (--streams === 0) process.exit();
  };
  // An empty write's callback comes after every earlier write to the stream has been handed over.
  process.stdout.write('', written);
  process.stderr.write('', written);
}
