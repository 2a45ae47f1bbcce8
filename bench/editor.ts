/**
 * The editor's latency: an edit on one page of a document → the service's answer with that page
 * redrawn (POST /editor/preview over HTTP on loopback, the editor's known and shown pages sent
 * along, as the browser does, so the edit comes back as a band of the page), for the repository's
 * README and the CommonMark spec (130+ pages). The browser asks for the first keystroke after a
 * quiet spell at once; the browser test prints the whole keystroke → page figure.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock } from '../src/clock.js';
import { defaultDeployment } from '../src/config/deployment.js';
import { createApp } from '../src/http/app.js';
import { startServer } from '../src/http/server.js';
import { silentLog } from '../src/log.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { RenderPool } from '../src/workers/pool.js';
import { ROOT } from './corpus.js';
import { percentile } from './percentile.js';
import { includedDocuments } from '../src/limits/plans.js';

export interface EditorFigures {
  /** `bandRows`: the rows of the page an edit drew (Infinity: the whole page). */
  documents: { name: string; pages: number; firstMs: number; editP50: number; editMax: number; redrawn: number; bandRows: number; targetMs: number }[];
}

const EDITS = 12;

interface Answer {
  pages: { hash: string; png: string | null; band: { height: number } | null }[];
}

export async function benchEditor(): Promise<EditorFigures> {
  const documents = [
    { name: 'README.md', markdown: readFileSync(path.join(ROOT, 'README.md'), 'utf8'), targetMs: 100 },
    { name: 'commonmark-spec', markdown: readFileSync(path.join(ROOT, 'node_modules/commonmark-spec/spec.txt'), 'utf8'), targetMs: 300 },
  ];
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-editor-'));
  const store = SqliteStore.open(path.join(dir, 'quire.db'), systemClock, { included: includedDocuments });
  const config = { ...defaultDeployment(), workers: 1 };
  const pool = new RenderPool({ size: 1, queueLimit: 8, memoryMb: config.workerMemoryMb });
  const server = await startServer(createApp({ store, clock: systemClock, pool, config, log: silentLog }), pool, { port: 0, hostname: '127.0.0.1' });
  try {
    const account = await store.createAccount({ email: 'bench-editor@example.com', plan: 'scale', emailVerified: true });
    await store.updateAccount(account.id, { overrides: { previews_per_hour: 100_000 } });
    const { key } = await store.createApiKey(account.id, 'bench');
    const preview = async (markdown: string, known: string[], shown: (string | null)[], focus: number) => {
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${server.port}/editor/preview`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ markdown, known_pages: known, shown_pages: shown, focus_page: focus }),
      });
      if (!response.ok) throw new Error(`preview answered ${response.status}: ${await response.text()}`);
      const answer = (await response.json()) as Answer;
      return { answer, ms: performance.now() - started };
    };
    const figures: EditorFigures['documents'] = [];
    for (const doc of documents) {
      const first = await preview(doc.markdown, [], [], 0);
      const known = first.answer.pages.map((page) => page.hash);
      // As the editor does: the pictures it has, and the one it shows as each page.
      const shown: (string | null)[] = first.answer.pages.map((page) => (page.png === null ? null : page.hash));
      const keep = (answer: Answer) =>
        answer.pages.forEach((page, index) => {
          if (page.png === null) return;
          known.push(page.hash);
          shown[index] = page.hash;
        });
      // One word more in a paragraph in the middle of the document: one page changes, the one typed on.
      const cut = doc.markdown.indexOf('.\n', Math.floor(doc.markdown.length / 2));
      const edited = (edit: number) => `${doc.markdown.slice(0, cut)} word${edit}${doc.markdown.slice(cut)}`;
      const probe = await preview(edited(0), known, shown, 0);
      const typedOn = Math.max(
        0,
        probe.answer.pages.findIndex((page) => !known.includes(page.hash)),
      );
      keep((await preview(edited(0), known, shown, typedOn)).answer);
      const times: number[] = [];
      let redrawn = 0;
      let bandRows = 0;
      for (let edit = 1; edit <= EDITS; edit += 1) {
        const { answer, ms } = await preview(edited(edit), known, shown, typedOn);
        times.push(ms);
        const drawn = answer.pages.filter((page) => page.png !== null);
        redrawn = drawn.length;
        bandRows = Math.max(...drawn.map((page) => (page.band ? Math.round(page.band.height * 1.5) : Infinity)));
        keep(answer);
      }
      const warm = times.slice(2);
      figures.push({
        name: doc.name,
        pages: first.answer.pages.length,
        firstMs: first.ms,
        editP50: percentile(warm, 0.5),
        editMax: Math.max(...warm),
        redrawn,
        bandRows,
        targetMs: doc.targetMs,
      });
    }
    return { documents: figures };
  } finally {
    await server.close(0);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
