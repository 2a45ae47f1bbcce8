import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FEATURE_NAMES, folderLoader, QuireError, render, type RenderOptions } from '../../engine/index.js';
import { CliError } from './cli-error.js';
import { yieldHelperThreads } from './helper-threads.js';

const USAGE = 'usage: quire render <file.md | -> [-o out.pdf] [--theme light|dark] [--language TAG] [--resources strict|lenient] [--no-FEATURE] [--FEATURE]';

interface RenderArgs {
  input: string;
  output: string | null;
  options: RenderOptions;
}

/** `quire render`: the engine as a tool. Local images load from the Markdown file's folder. */
export async function renderCommand(argv: string[]): Promise<void> {
  yieldHelperThreads();
  const args = parseArgs(argv);
  const markdown = await readInput(args.input);
  const baseDir = args.input === '-' ? process.cwd() : path.dirname(path.resolve(args.input));
  let result;
  try {
    result = await render(markdown, { ...args.options, loader: folderLoader(baseDir) });
  } catch (error) {
    if (error instanceof QuireError) throw new CliError(describe(error), 1);
    throw error;
  }
  for (const warning of result.warnings) process.stderr.write(`quire: warning: ${warning}\n`);
  if (args.output === '-' || (args.output === null && args.input === '-')) {
    process.stdout.write(result.pdf);
  } else {
    const output = args.output ?? args.input.replace(/\.(md|markdown|mdown|txt)$/i, '') + '.pdf';
    // Synchronous: a one-shot command has nothing to do meanwhile, and skips the thread pool's round trips.
    writeFileSync(output, result.pdf);
    process.stderr.write(`quire: wrote ${output} (${result.pages} page${result.pages === 1 ? '' : 's'})\n`);
  }
  exitWhenWritten();
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

function parseArgs(argv: string[]): RenderArgs {
  let input: string | null = null;
  let output: string | null = null;
  const features: Record<string, unknown> = {};
  const options: RenderOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new CliError(`${arg} needs a value (see quire render --help)`);
      return next;
    };
    if (arg === '-o' || arg === '--output') output = value();
    else if (arg === '--theme') features.theme = value();
    else if (arg === '--language') options.language = value();
    else if (arg === '--resources') {
      const mode = value();
      if (mode !== 'strict' && mode !== 'lenient') throw new CliError('--resources must be strict or lenient');
      options.resources = mode;
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else if (arg.startsWith('--no-')) features[featureName(arg.slice(5), arg)] = false;
    else if (arg.startsWith('--') && arg.length > 2) features[featureName(arg.slice(2), arg)] = true;
    else if (input === null) input = arg;
    else throw new CliError(`unexpected argument "${arg}" (see quire render --help)`);
  }
  if (input === null) throw new CliError(`which file? ${USAGE}`);
  options.features = features;
  return { input, output, options };
}

/** `--smart-typography` and `--smart_typography` both name the `smart_typography` switch. */
function featureName(flag: string, arg: string): string {
  const name = flag.replace(/-/g, '_');
  if (!(FEATURE_NAMES as string[]).includes(name) || name === 'theme') throw new CliError(`unknown option ${arg} (see quire render --help)`);
  return name;
}

async function readInput(input: string): Promise<string> {
  try {
    if (input === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    }
    return readFileSync(input, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${input}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 1);
  }
}

function describe(error: QuireError): string {
  if ('resourceId' in error) return `${error.message} (resource ${String(error.resourceId)})`;
  return error.message;
}
