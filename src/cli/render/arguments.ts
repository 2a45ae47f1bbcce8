/**
 * `quire render`'s arguments: which files, where the PDFs go, how resources load, and the
 * engine's feature switches — with the help text that lists them all.
 */
import path from 'node:path';
import { DEFAULT_FEATURES, FEATURE_NAMES, type RenderOptions, type ResourceMode } from '@quire/engine';
import { DEFAULT_NET_SETTINGS } from '../../net/net-settings.js';
import { CliAnswer, CliError } from '../cli-error.js';
import { versionLine } from '../version.js';
import { checkEncoding } from './decode-input.js';
import { addSetting, CONFIG_FILE, type DesignRecord } from './design-config.js';

export interface RenderArguments {
  /** Markdown files in order; `-` is standard input. */
  inputs: string[];
  /** `-o`: one PDF (`-` for standard output); null: beside each input. */
  output: string | null;
  /** `--out-dir`: each input to its own PDF in this folder. */
  outDir: string | null;
  /** Local images never load from outside this folder; null: the inputs' common folder. */
  root: string | null;
  watch: boolean;
  offline: boolean;
  resources: ResourceMode;
  options: Pick<RenderOptions, 'features' | 'language'>;
  /** `--config`: the settings file to read instead of a quire.yaml beside the input. */
  config: string | null;
  /** `--set key=value`, in order (a later one wins). */
  sets: DesignRecord;
  /** `--encoding`: how the Markdown files are read; null: UTF-8 (or UTF-16 by its byte order mark). */
  encoding: string | null;
  /** `--max-remote`: the most distinct remote images a document may load (none: no bound). */
  maxRemote: number;
  /** `--max-remote-mb`, in bytes: what a document's remote images may load together. */
  maxRemoteBytes: number;
  /** `--progress`: progress lines for remote images even when standard error is not a terminal. */
  progress: boolean;
  /** `--font [Family=]file`, in order: the files absolute, the family null when the font's own name is meant. */
  fonts: FontFile[];
}

export interface FontFile {
  family: string | null;
  file: string;
}

const MB = 1024 * 1024;
/** What all of one document's remote images may load together, unless --max-remote-mb says otherwise. */
export const CLI_REMOTE_BYTES = 100 * MB;

/** The command line's own default; the library and the service default to strict. */
export const CLI_RESOURCE_MODE: ResourceMode = 'lenient';

const SWITCHES = FEATURE_NAMES.filter((name) => name !== 'theme')
  .map((name) => `  --${name.replace(/_/g, '-').padEnd(20)} ${DEFAULT_FEATURES[name] ? 'on' : 'off'} by default (--no-${name.replace(/_/g, '-')} turns it off)`)
  .join('\n');

export const RENDER_HELP = `usage: quire render <file.md | -> [more.md …] [options]

Renders Markdown to PDF. With one file the PDF goes beside it (README.md → README.pdf) or to -o;
with several, -o joins them into one PDF and --out-dir writes one PDF each.

options:
  -o, --output FILE       the PDF to write; - for standard output (the default when the Markdown
                          comes from standard input and standard output is not a terminal)
  --out-dir DIR           one PDF per file in DIR, rendered in parallel (as many as there are cores)
  --watch                 render again whenever the file or a local image it shows is saved,
                          until interrupted (remote images are fetched once per session)
  --root DIR              local images load only from inside DIR (default: the folder holding
                          the files)
  --resources MODE        lenient (the command line's default): an image that cannot be loaded is
                          drawn as a placeholder with a warning; strict: it fails the render
                          (the library's and the service's default)
  --offline               load nothing over the network: remote images are placeholders
  --max-remote N          at most N distinct remote images per document (default: no limit)
  --max-remote-mb N       at most N MB of remote images per document together (default ${CLI_REMOTE_BYTES / MB})
  --progress              report remote images as they load on standard error even when it is
                          not a terminal (on a terminal, a status line shows it anyway)
  --encoding NAME         read the Markdown in this encoding (latin1, windows-1252, utf-16le, …:
                          any the WHATWG Encoding standard names); default UTF-8, whose byte order
                          mark is fine (a UTF-16 one is read as UTF-16). A file that is not text,
                          or not valid in its encoding, is refused with where it goes wrong
  --theme light|dark      the colour theme (default light)
  --language TAG          the document's language as a BCP 47 tag (hyphenation, quotes), over
                          the front matter's
  --set KEY=VALUE         a document setting, as front matter writes it (paper=letter,
                          margin=20mm, footer.right="{page} of {pages}", number_headings=true);
                          repeatable; the document's own front matter overrides it
  --config FILE           settings (front matter keys) from FILE; without it, from a
                          ${CONFIG_FILE} beside the Markdown file when there is one
  --font [FAMILY=]FILE    a TrueType or OpenType font (.ttf, .otf, .ttc) the document may name
                          in its front matter (fonts: Inter, or fonts: {body: Inter, mono: …}),
                          as FAMILY or else by the family its name table gives; repeatable, one
                          face (regular, bold, italic, bold italic) each
  -h, --help              this help
  -v, --version           the version of quire

Remote images (http and https) load as the service loads them: public addresses only, no
redirects, ${DEFAULT_NET_SETTINGS.resourceTimeoutMs / 1000} s per image and ${DEFAULT_NET_SETTINGS.resourcesTimeoutMs / 1000} s for all of a document's (QUIRE_NET_RESOURCE_TIMEOUT_S,
QUIRE_NET_RESOURCES_TIMEOUT_S), several at a time. Extra certificate authorities come from
NODE_EXTRA_CA_CERTS. Unknown front matter keys are named in a warning, with the key meant when
one is close.

feature switches (--FEATURE turns one on, --no-FEATURE off):
${SWITCHES}

examples:
  quire render README.md                       writes README.pdf
  quire render README.md --offline -o out.pdf  no network; remote badges become placeholders
  quire render intro.md setup.md -o book.pdf   one PDF, each file from a new page
  quire render docs/*.md --out-dir pdf/        one PDF per file
  quire render notes.md --set paper=letter --set footer="{page} of {pages}"
  quire render notes.md --font Inter-Regular.ttf --font Inter-Bold.ttf --set fonts=Inter
  cat notes.md | quire render - > notes.pdf
`;

export function parseRenderArguments(argv: string[]): RenderArguments {
  const parsed: RenderArguments = {
    inputs: [],
    output: null,
    outDir: null,
    root: null,
    watch: false,
    offline: false,
    resources: CLI_RESOURCE_MODE,
    options: {},
    config: null,
    sets: {},
    encoding: null,
    maxRemote: Number.POSITIVE_INFINITY,
    maxRemoteBytes: CLI_REMOTE_BYTES,
    progress: false,
    fonts: [],
  };
  answerHelpOrVersion(argv);
  const features: Record<string, unknown> = {};
  let operands = false;
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i]!;
    if (operands || arg === '-' || !arg.startsWith('-')) {
      parsed.inputs.push(arg);
      continue;
    }
    if (arg === '--') {
      operands = true;
      continue;
    }
    // `--theme=dark` is `--theme dark`.
    let inline: string | undefined;
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    if (equals > 2) {
      inline = arg.slice(equals + 1);
      arg = arg.slice(0, equals);
    }
    const value = () => {
      if (inline !== undefined) {
        const given = inline;
        inline = undefined;
        return given;
      }
      const next = argv[++i];
      if (next === undefined) throw new CliError(`${arg} needs a value (see quire render --help)`);
      return next;
    };
    if (arg === '-o' || arg === '--output') parsed.output = value();
    else if (arg === '--out-dir') parsed.outDir = value();
    else if (arg === '--root') parsed.root = value();
    else if (arg === '--watch') parsed.watch = true;
    else if (arg === '--offline') parsed.offline = true;
    else if (arg === '--theme') features.theme = value();
    else if (arg === '--language') parsed.options.language = value();
    else if (arg === '--resources') parsed.resources = resourceMode(value());
    else if (arg === '--set') addSetting(parsed.sets, value());
    else if (arg === '--config') parsed.config = value();
    else if (arg === '--encoding') parsed.encoding = checkEncoding(value());
    else if (arg === '--max-remote') parsed.maxRemote = wholeNumber(arg, value());
    else if (arg === '--max-remote-mb') parsed.maxRemoteBytes = megabytes(arg, value());
    else if (arg === '--progress') parsed.progress = true;
    else if (arg === '--font') parsed.fonts.push(fontFile(value()));
    else if (arg.startsWith('--no-')) features[featureName(arg.slice(5), arg)] = false;
    else if (arg.startsWith('--') && arg.length > 2) features[featureName(arg.slice(2), arg)] = true;
    else throw new CliError(`unknown option ${arg} (see quire render --help)`);
    if (inline !== undefined) throw new CliError(`${arg} takes no value (see quire render --help)`);
  }
  parsed.options.features = features;
  return checked(parsed);
}

/** `--help` and `--version` are answered whatever else is given (before `--`, after which all are files). */
function answerHelpOrVersion(argv: readonly string[]): void {
  for (const arg of argv) {
    if (arg === '--') return;
    if (arg === '--help' || arg === '-h') throw new CliAnswer(RENDER_HELP);
    if (arg === '--version' || arg === '-v') throw new CliAnswer(versionLine());
  }
}

function wholeNumber(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(value) || value < 1) throw new CliError(`${flag} takes a whole number above 0, not "${text}"`);
  return value;
}

function megabytes(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0) throw new CliError(`${flag} takes a number of megabytes above 0, not "${text}"`);
  return Math.floor(value * MB);
}

/** Combinations that cannot mean anything, refused with what to do instead. */
function checked(args: RenderArguments): RenderArguments {
  const { inputs } = args;
  if (inputs.length === 0) throw new CliError('which file? usage: quire render <file.md | -> [options] (see quire render --help)');
  if (inputs.filter((input) => input === '-').length > 1) throw new CliError('standard input (-) can be read only once');
  if (args.outDir !== null && args.output !== null)
    throw new CliError('-o and --out-dir exclude each other: -o joins the files into one PDF, --out-dir writes one PDF each');
  if (args.outDir !== null && inputs.includes('-')) throw new CliError('--out-dir names each PDF after its file: standard input (-) has no name');
  if (inputs.length > 1 && args.output === null && args.outDir === null) {
    throw new CliError(`${inputs.length} files: join them with -o book.pdf, or write one PDF each with --out-dir DIR`);
  }
  if (args.watch && (inputs.length > 1 || inputs[0] === '-' || args.outDir !== null)) throw new CliError('--watch follows one file (not standard input)');
  return args;
}

/**
 * `--font Inter.ttf` or `--font "Inter Display=fonts/Inter.ttf"`: a family before an `=` when
 * what precedes it names no folder (a file whose name holds `=` is written with its folder,
 * `./a=b.ttf`).
 */
function fontFile(value: string): FontFile {
  const equals = value.indexOf('=');
  const family = equals > 0 ? value.slice(0, equals) : '';
  if (family.trim() !== '' && !/[/\\]/.test(family)) {
    const file = value.slice(equals + 1);
    if (file === '') throw new CliError(`--font ${value}: which file? (--font FAMILY=FILE)`);
    return { family: family.trim(), file: path.resolve(file) };
  }
  return { family: null, file: path.resolve(value) };
}

function resourceMode(mode: string): ResourceMode {
  if (mode !== 'strict' && mode !== 'lenient') throw new CliError('--resources must be strict or lenient');
  return mode;
}

/** `--smart-typography` and `--smart_typography` both name the `smart_typography` switch. */
function featureName(flag: string, arg: string): string {
  const name = flag.replace(/-/g, '_');
  if (!(FEATURE_NAMES as string[]).includes(name) || name === 'theme') throw new CliError(`unknown option ${arg} (see quire render --help)`);
  return name;
}
