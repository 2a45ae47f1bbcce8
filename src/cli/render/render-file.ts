/** One Markdown file (or standard input) to PDF bytes, as `quire render` sets the engine up. */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_BOUNDS,
  FontError,
  FrontMatterError,
  InvalidOptionError,
  QuireError,
  ResourceBudgetError,
  ResourceError,
  render,
  renderFiles,
  type FontSource,
  type MarkdownFile,
  type RenderCache,
  type RenderOptions,
  type RenderResult,
  type ResourceLoader,
} from '@quire/engine';
import { CliError } from '../cli-error.js';
import type { FontFile, RenderArguments } from './arguments.js';
import { decodeInput } from './decode-input.js';
import { cliLoader, RemoteImages, type FetchProgress, type RemoteImageMemory } from './resource-loader.js';
import { designFor } from './design-config.js';

export interface RenderedFile {
  pdf: Uint8Array;
  pages: number;
  warnings: string[];
}

export type RenderSettings = Pick<
  RenderArguments,
  'offline' | 'resources' | 'options' | 'config' | 'sets' | 'encoding' | 'maxRemote' | 'maxRemoteBytes' | 'fonts'
> & {
  /** Local images never load from outside this folder. */
  root: string;
  /** Told how the remote images load (not for --out-dir, whose settings go to other threads). */
  progress?: FetchProgress;
  onLocalFile?: (file: string) => void;
  /** Kept between the renders of a file followed as it is saved (--watch). */
  cache?: RenderCache;
  remoteImages?: RemoteImageMemory;
};

export async function renderFile(input: string, settings: RenderSettings): Promise<RenderedFile> {
  const markdown = await readMarkdown(input, settings.encoding);
  const warnings: string[] = [];
  const options = await engineOptions(input, settings, warnings);
  const remote = remoteImages(settings);
  const rendered = await engineErrors(
    () => render(markdown, { ...options, loader: loaderFor(input, markdown, settings, remote) }),
    [input],
    [],
    settings.fonts,
  );
  return { ...rendered, warnings: [...warnings, ...rendered.warnings.map((warning) => placed(warning, input))] };
}

/** Several files as one PDF, each from a new page, linking to each other by their paths. */
export async function renderJoined(inputs: string[], settings: RenderSettings): Promise<RenderedFile> {
  if (inputs.includes('-')) throw new CliError('standard input (-) cannot be joined with files: it has no path for links to name');
  const files: MarkdownFile[] = [];
  const remote = remoteImages(settings);
  for (const input of inputs) {
    const relative = path.relative(settings.root, path.resolve(input));
    if (relative.startsWith('..') || path.isAbsolute(relative)) throw new CliError(`${input} is outside --root ${settings.root}`);
    const markdown = await readMarkdown(input, settings.encoding);
    files.push({ markdown, path: relative.split(path.sep).join('/'), loader: loaderFor(input, markdown, settings, remote) });
  }
  // The first file's settings speak for the whole, as its front matter does.
  const warnings: string[] = [];
  const options = await engineOptions(inputs[0]!, settings, warnings);
  const rendered = await engineErrors(() => renderFiles(files, options), inputs, files, settings.fonts);
  return { ...rendered, warnings: [...warnings, ...rendered.warnings] };
}

/** The document's remote images: counted together, whichever of its files links them. */
function remoteImages(settings: RenderSettings): RemoteImages {
  return new RemoteImages(
    { maxRemote: settings.maxRemote, maxRemoteBytes: settings.maxRemoteBytes },
    { progress: settings.progress, memory: settings.remoteImages },
  );
}

function loaderFor(input: string, markdown: string, settings: RenderSettings, remote: RemoteImages): ResourceLoader {
  const { onLocalFile } = settings;
  const features = settings.options.features as Record<string, unknown> | undefined;
  return cliLoader({
    baseDir: inputFolder(input),
    root: settings.root,
    offline: settings.offline,
    remote,
    // The images the engine will ask for, found as the service finds them on a document as sent
    // (its scanner loaded only for a document that links a remote image).
    expected: async () => {
      const { distinctRemote, eachImageReference } = await import('../../limits/image-references.js');
      return distinctRemote(eachImageReference(markdown, { html: features?.html_blocks !== false }));
    },
    ...(onLocalFile && { onLocalFile }),
  });
}

async function engineOptions(input: string, settings: RenderSettings, warnings: string[]): Promise<RenderOptions> {
  const { cache } = settings;
  return {
    ...settings.options,
    design: await designFor(input, settings.config, settings.sets, (warning) => warnings.push(warning)),
    resources: settings.resources,
    // Local images are the user's own files; remote ones are bounded by --max-remote-mb (RemoteImages).
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

/**
 * The engine's result, its typed errors as one line for the user. `inputs` are the files rendered
 * and `files` their paths as the engine knew them (joined files), to name the one at fault;
 * `fonts` the --font files, named for a font the engine refused.
 */
async function engineErrors(run: () => Promise<RenderResult>, inputs: string[], files: MarkdownFile[], fonts: readonly FontFile[]): Promise<RenderedFile> {
  try {
    const result = await run();
    return { pdf: result.pdf, pages: result.pages, warnings: result.warnings };
  } catch (error) {
    if (error instanceof QuireError) throw new CliError(describe(error, inputs, files, fonts), 1);
    throw error;
  }
}

/**
 * An engine warning placed in its file: `front matter, line 3: …` of notes.md becomes
 * `notes.md:3: front matter: …`, as compilers and editors name places.
 */
function placed(warning: string, input: string): string {
  const match = /^front matter, line (\d+): /.exec(warning);
  if (match) return `${inputName(input)}:${match[1]}: front matter: ${warning.slice(match[0].length)}`;
  return warning.startsWith('front matter: ') ? `${inputName(input)}: ${warning}` : warning;
}

function inputName(input: string): string {
  return input === '-' ? 'standard input' : input;
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

/** The Markdown of a file (or of standard input) as text: refused if it is not text, or not in its encoding. */
async function readMarkdown(input: string, encoding: string | null): Promise<string> {
  let bytes: Buffer;
  try {
    if (input === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      bytes = Buffer.concat(chunks);
    } else {
      // Read at once: the render waits for it anyway, and node:fs/promises would cost ~3 ms to load.
      bytes = readFileSync(input);
    }
  } catch (error) {
    throw new CliError(`cannot read ${input}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 1);
  }
  return decodeInput(bytes, inputName(input), encoding);
}

function describe(error: QuireError, inputs: string[], files: MarkdownFile[], fonts: readonly FontFile[]): string {
  // The engine names a font by its place in the `fonts` option; the user gave it as a file.
  if (error instanceof FontError) return `font ${fonts[error.index]?.file ?? error.font}: ${error.detail}`;
  const font = error instanceof InvalidOptionError ? /^fonts\[(\d+)\]/.exec(error.key) : null;
  if (font) return `--font ${fonts[Number(font[1])]?.file ?? ''}: ${error.message}`;
  if (error instanceof InvalidOptionError && error.key.startsWith('design.')) return `${error.message} (from --set or the settings file)`;
  if (error instanceof FrontMatterError) return frontMatterProblem(error, inputs, files);
  if (error instanceof ResourceError) {
    const where = inputs.length === 1 ? '' : 'the document: ';
    const source = error.url === undefined ? 'a data: URI' : error.url;
    return `${where}image ${error.resourceId} (${source}) could not be loaded: ${error.message.replace(/^resource \d+ could not be loaded: /, '')} (--resources strict)`;
  }
  if (error instanceof ResourceBudgetError) {
    const megabytes = Number((error.limit / (1024 * 1024)).toPrecision(3));
    return `the document's remote images come to more than ${megabytes} MB together: allow more with --max-remote-mb N`;
  }
  return error.message;
}

/** `notes.md:2:8: front matter: …`: the file, and the line and column where the engine found them. */
function frontMatterProblem(error: FrontMatterError, inputs: string[], files: MarkdownFile[]): string {
  const index = error.file === undefined ? 0 : files.findIndex((file) => file.path === error.file);
  const input = inputName(inputs[Math.max(0, index)]!);
  const place = error.line === undefined ? input : `${input}:${error.line}${error.column === undefined ? '' : `:${error.column}`}`;
  return `${place}: front matter: ${error.detail}`;
}
