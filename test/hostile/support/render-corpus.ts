/**
 * A child process for tests that watch what rendering does from outside (under strace): renders
 * each document of a corpus with the engine, one after another, then prints one JSON line with
 * each outcome and the process's peak resident memory.
 *
 *   node render-corpus.js <corpus.json> <folder>
 *
 * The corpus is an array of {name, markdown, resources?}; relative resources are read from
 * <folder> through the engine's folder loader. Before each document the process tries to open
 * `<folder>/.case-<index>` (which does not exist): in a system-call trace that line marks where
 * the document's own calls begin; after each document it writes a `.` to stderr.
 */
import { openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { folderLoader, QuireError, render, type ResourceMode } from '#engine/index.js';

export interface CorpusDocument {
  name: string;
  markdown: string;
  resources?: ResourceMode;
}

export interface CorpusOutcome {
  name: string;
  /** `rendered`, the class of an error the engine throws on purpose, or `untyped: …` for any other failure. */
  outcome: string;
}

/** Per document, so a slow one is answered as the service would: with a timeout. */
export const DOCUMENT_MS = 20_000;

export function caseMarker(folder: string, index: number): string {
  return path.join(folder, `.case-${index}`);
}

async function main(): Promise<void> {
  const [corpusFile, folder] = process.argv.slice(2) as [string, string];
  const corpus = JSON.parse(readFileSync(corpusFile, 'utf8')) as CorpusDocument[];
  const loader = folderLoader(folder);
  const outcomes: CorpusOutcome[] = [];
  for (const [index, document] of corpus.entries()) {
    try {
      openSync(caseMarker(folder, index), 'r');
    } catch {
      // Expected: only the attempt matters.
    }
    let outcome = 'rendered';
    try {
      await render(document.markdown, { loader, resources: document.resources ?? 'lenient', limits: { signal: AbortSignal.timeout(DOCUMENT_MS) } });
    } catch (error) {
      outcome = error instanceof QuireError ? error.name : `untyped: ${String(error)}`;
    }
    outcomes.push({ name: document.name, outcome });
    process.stderr.write('.');
  }
  process.stdout.write(`${JSON.stringify({ outcomes, maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
}

// The test runner also runs every file under test/, with no arguments: then this does nothing.
if (process.argv.length === 4) await main();
