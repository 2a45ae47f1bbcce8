/** One Markdown file (or standard input) to PDF bytes, as `quire render` sets the engine up. */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_BOUNDS,
  FontError,
  InvalidOptionError,
  QuireError,
  render,
  renderFiles,
  type FontSource,
  type MarkdownFile,
  type RenderCache,
  type RenderOptions,
  type RenderResult,
  type ResourceLoader,
} from '../../../engine/index.js';
import { CliError } from '../cli-error.js';
import { CLI_RESOURCE_BYTES, type FontFile, type RenderArguments } from './arguments.js';
import { cliLoader, type RemoteImageMemory } from './resource-loader.js';
import { designFor } from './design-config.js';

export interface RenderedFile {
  pdf: Uint8Array;
  pages: number;
  warnings: string[];
}

export type RenderSettings = Pick<RenderArguments, 'offline' | 'resources' | 'options' | 'config' | 'sets' | 'fonts'> & {
  /** Local images never load from outside this folder. */
  root: string;
  onFetch?: (event: 'start' | 'end') => void;
  onLocalFile?: (file: string) => void;
  /** Kept between the renders of a file followed as it is saved (--watch). */
  cache?: RenderCache;
  remoteImages?: RemoteImageMemory;
};

export async function renderFile(input: string, settings: RenderSettings): Promise<RenderedFile> {
  const markdown = await readMarkdown(input);
  const options = await engineOptions(input, settings);
  return engineErrors(() => render(markdown, { ...options, loader: loaderFor(input, settings) }), settings.fonts);
}

/** Several files as one PDF, each from a new page, linking to each other by their paths. */
export async function renderJoined(inputs: string[], settings: RenderSettings): Promise<RenderedFile> {
  if (inputs.includes('-')) throw new CliError('standard input (-) cannot be joined with files: it has no path for links to name');
  const files: MarkdownFile[] = [];
  for (const input of inputs) {
    const relative = path.relative(settings.root, path.resolve(input));
    if (relative.startsWith('..') || path.isAbsolute(relative)) throw new CliError(`${input} is outside --root ${settings.root}`);
    files.push({ markdown: await readMarkdown(input), path: relative.split(path.sep).join('/'), loader: loaderFor(input, settings) });
  }
  // The first file's settings speak for the whole, as its front matter does.
  const options = await engineOptions(inputs[0]!, settings);
  return engineErrors(() => renderFiles(files, options), settings.fonts);
}

function loaderFor(input: string, settings: RenderSettings): ResourceLoader {
  const { onFetch, onLocalFile, remoteImages } = settings;
  return cliLoader({
    baseDir: inputFolder(input),
    root: settings.root,
    offline: settings.offline,
    ...(onFetch && { onFetch }),
    ...(onLocalFile && { onLocalFile }),
    ...(remoteImages && { memory: remoteImages }),
  });
}

async function engineOptions(input: string, settings: RenderSettings): Promise<RenderOptions> {
  const { cache } = settings;
  return {
    ...settings.options,
    design: await designFor(input, settings.config, settings.sets),
    resources: settings.resources,
    limits: { resourceBytes: CLI_RESOURCE_BYTES },
    ...(settings.fonts.length > 0 && { fonts: settings.fonts.map(readFont) }),
    ...(cache && { cache }),
  };
}

/**
 * A `--font` file's bytes, read here (from wherever it is: the user named it, no document did),
 * its size checked before it is read.
 */
function readFont({ family, file }: FontFile): FontSource {
  let bytes: Uint8Array;
  try {
    const size = statSync(file).size;
    if (size > DEFAULT_BOUNDS.maxFontBytes) throw new CliError(`font ${file}: the file is larger than ${DEFAULT_BOUNDS.maxFontBytes / 1024 / 1024} MiB`, 1);
    bytes = readFileSync(file);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read font ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 1);
  }
  return { ...(family !== null && { family }), data: bytes };
}

/** The engine's result, its typed errors as one line for the user. */
async function engineErrors(run: () => Promise<RenderResult>, fonts: readonly FontFile[]): Promise<RenderedFile> {
  try {
    const result = await run();
    return { pdf: result.pdf, pages: result.pages, warnings: result.warnings };
  } catch (error) {
    if (error instanceof QuireError) throw new CliError(describe(error, fonts), 1);
    throw error;
  }
}

/** The PDF named after a Markdown file: README.md → README.pdf. */
export function pdfNameFor(input: string): string {
  return `${input.replace(/\.(md|markdown|mdown|txt)$/i, '')}.pdf`;
}

/** Where a file's relative images start: its folder (standard input: the working folder). */
export function inputFolder(input: string): string {
  return input === '-' ? process.cwd() : path.dirname(path.resolve(input));
}

/** The folder holding every input, the default root for their images. */
export function commonFolder(inputs: string[]): string {
  const folders = inputs.map((input) => inputFolder(input).split(path.sep));
  const common = folders.reduce((shared, folder) => {
    let same = 0;
    while (same < shared.length && shared[same] === folder[same]) same++;
    return shared.slice(0, same);
  });
  return common.join(path.sep) || path.sep;
}

async function readMarkdown(input: string): Promise<string> {
  try {
    if (input === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    }
    // Read at once: the render waits for it anyway, and node:fs/promises would cost ~3 ms to load.
    return readFileSync(input, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${input}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 1);
  }
}

function describe(error: QuireError, fonts: readonly FontFile[]): string {
  // The engine names a font by its place in the `fonts` option; the user gave it as a file.
  if (error instanceof FontError) return `font ${fonts[error.index]?.file ?? error.font}: ${error.detail}`;
  const font = error instanceof InvalidOptionError ? /^fonts\[(\d+)\]/.exec(error.key) : null;
  if (font) return `--font ${fonts[Number(font[1])]?.file ?? ''}: ${error.message}`;
  if (error instanceof InvalidOptionError && error.key.startsWith('design.')) return `${error.message} (from --set or the settings file)`;
  if (!('resourceId' in error) || error.message.includes(`resource ${String(error.resourceId)}`)) return error.message;
  return `${error.message} (resource ${String(error.resourceId)})`;
}
