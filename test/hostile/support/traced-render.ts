/**
 * Renders a corpus in a child process watched from outside by strace (Debian's `strace`), and
 * reports every file the process tried to open that it was not given and every connection it
 * tried to make. Failed attempts count: trying to open a file is the hole, whether or not it
 * exists. The allowed files are the bundled code and assets, Node with its shared libraries and
 * the machine facts Node and V8 read, the installed fonts the engine falls back to, and what the
 * test hands the process (its corpus and the documents' folder).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SYSTEM_FONT_DIRS } from '#engine/text/font-catalog.js';
import { DOCUMENT_MS, type CorpusDocument, type CorpusOutcome } from './render-corpus.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const RENDERER = fileURLToPath(new URL('./render-corpus.js', import.meta.url));

/** Directories (ending in `/`) and files the renderer may open whatever the document says. */
const ALLOWED = [
  // The packages: their code, dependencies and the engine's bundled fonts.
  ...['node_modules/', 'dist/', 'engine/dist/', 'engine/fonts/', 'engine/package.json'].map((entry) => path.join(REPO, entry)),
  `${realpathSync(path.join(REPO, 'node_modules'))}/`,
  ...SYSTEM_FONT_DIRS.map((folder) => `${folder}/`),
  // Node, the libraries it links and what it and V8 read about the machine.
  process.execPath,
  '/lib/',
  '/lib64/',
  '/usr/lib/',
  '/etc/ld.so.cache',
  '/etc/ld.so.preload',
  '/proc/',
  '/sys/',
  '/dev/null',
  '/dev/urandom',
  '/etc/localtime',
  '/etc/ssl/openssl.cnf',
];

export interface TracedRun {
  /** Why the child did not finish (killed when stalled, crashed); null when it did. */
  failure: string | null;
  /** The document being rendered when the trace ends (the one a stall or crash happened in). */
  lastDocument: string | null;
  outcomes: CorpusOutcome[];
  maxRssBytes: number;
  /** Files opened outside what is allowed, each with the corpus document being rendered then. */
  forbidden: Array<{ path: string; document: string | null }>;
  /** Every path the process tried to open. */
  opened: Set<string>;
  connects: string[];
}

/** A fresh folder for a traced run's documents, with a sibling `outside/` for what they must not reach. */
export function tracedWorkspace(): { folder: string; outside: string } {
  const work = mkdtempSync(path.join(tmpdir(), 'quire-traced-'));
  const workspace = { folder: path.join(work, 'documents'), outside: path.join(work, 'outside') };
  mkdirSync(workspace.folder);
  mkdirSync(workspace.outside);
  return workspace;
}

/** Past this without a document answered, the child is stuck where a deadline cannot reach (native code). */
const STALL_MS = 2 * DOCUMENT_MS;

/** Renders `documents` reading resources from `folder`, the child killed when it stalls; the trace is read either way. */
export async function tracedRender(documents: CorpusDocument[], folder: string): Promise<TracedRun> {
  const corpus = path.join(path.dirname(folder), 'corpus.json');
  const traceFile = path.join(path.dirname(folder), 'trace');
  writeFileSync(corpus, JSON.stringify(documents));

  // Node reads the certificates NODE_EXTRA_CA_CERTS names as it starts; a render connects nowhere.
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const strace = ['-f', '-qq', '-s', '4096', '-e', 'trace=open,openat,openat2,creat,connect', '-o', traceFile];
  // A group of its own, so the renderer is killed with strace (killing strace alone lets it run on).
  const process_ = spawn('strace', [...strace, process.execPath, RENDERER, corpus, folder], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const child = await new Promise<{ stdout: string; failure: string | null }>((resolve) => {
    let stdout = '';
    let stderr = '';
    let stalled = false;
    let watchdog = setTimeout(() => {}, 0);
    const watch = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        stalled = true;
        process.kill(-process_.pid!, 'SIGKILL');
      }, STALL_MS);
    };
    watch();
    process_.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    process_.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text.replace(/\./g, '');
      watch();
    });
    process_.once('close', (code, signal) => {
      clearTimeout(watchdog);
      if (stalled) resolve({ stdout, failure: `no document was answered for ${STALL_MS} ms` });
      else resolve({ stdout, failure: code === 0 ? null : `the renderer ended (${code ?? signal}): ${stderr}` });
    });
  });
  const report = child.failure === null ? (JSON.parse(child.stdout) as { outcomes: CorpusOutcome[]; maxRssBytes: number }) : { outcomes: [], maxRssBytes: 0 };
  const trace = await readFile(traceFile, 'utf8');
  const given = [corpus, `${folder}/`];
  const allowed = (file: string) =>
    [...ALLOWED, ...given].some((entry) => file === entry || (entry.endsWith('/') && `${file}/`.startsWith(entry))) || isPackageLookup(file);

  const forbidden: TracedRun['forbidden'] = [];
  const opened = new Set<string>();
  const connects: string[] = [];
  let document: string | null = null;
  for (const line of trace.split('\n')) {
    if (/\bconnect\(/.test(line)) connects.push(line);
    const match = /\b(?:open|openat|openat2|creat)\((?:AT_FDCWD, |\d+, )?"((?:[^"\\]|\\.)*)"/.exec(line);
    if (!match) continue;
    const file = path.resolve(REPO, unescapeStrace(match[1]!));
    opened.add(file);
    const marker = /\/\.case-(\d+)$/.exec(file);
    if (marker && file.startsWith(folder)) document = documents[Number(marker[1])]!.name;
    else if (!allowed(file)) forbidden.push({ path: file, document });
  }
  return { ...report, failure: child.failure, lastDocument: document, forbidden, opened, connects };
}

/** Node looks for a package.json in every folder above a module it loads. */
function isPackageLookup(file: string): boolean {
  return path.basename(file) === 'package.json' && REPO.startsWith(path.dirname(file));
}

/** strace writes bytes outside printable ASCII as octal escapes (and quotes and backslashes escaped). */
function unescapeStrace(text: string): string {
  const bytes = text.replace(/\\([0-7]{1,3}|.)/g, (_, code: string) => {
    if (/^[0-7]+$/.test(code)) return String.fromCharCode(Number.parseInt(code, 8));
    return ({ n: '\n', t: '\t', r: '\r', v: '\v', f: '\f' } as Record<string, string>)[code] ?? code;
  });
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
