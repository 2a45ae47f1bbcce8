import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `quire render FILE -o OUT` as a user runs it: the installed command, bin/quire. */
export function quireRender(file: string, out: string): string[] {
  return [path.join(ROOT, 'bin/quire'), 'render', file, '-o', out, '--resources', 'lenient'];
}

export interface BenchDocument {
  name: string;
  file: string;
  bytes: number;
}

/** README sizes to pick from installed packages: real documents nobody on this project wrote. */
const README_TARGETS = [1_500, 5_000, 12_000, 25_000, 45_000];

/**
 * The benchmark corpus: the CommonMark spec, READMEs of installed npm packages across sizes,
 * and Quire's own fixtures. Chosen by rule, never by how fast they render.
 */
export function benchCorpus(): BenchDocument[] {
  const docs: BenchDocument[] = [];
  const add = (name: string, file: string) => docs.push({ name, file, bytes: statSync(file).size });
  add('commonmark-spec', path.join(ROOT, 'node_modules/commonmark-spec/spec.txt'));
  const readmes = installedReadmes();
  for (const target of README_TARGETS) {
    const closest = readmes.reduce((best, candidate) => (Math.abs(candidate.bytes - target) < Math.abs(best.bytes - target) ? candidate : best));
    if (!docs.some((doc) => doc.file === closest.file)) add(`readme:${closest.name}`, closest.file);
  }
  for (const fixture of ['german.md', 'kitchen-sink.md', 'table-200.md']) add(`fixture:${fixture}`, path.join(ROOT, 'fixtures', fixture));
  return docs;
}

/**
 * README-sized documents: every installed package README whose size lies between the 25th and
 * 75th percentile of all of them (about 2–8 KB here), up to `limit`, in name order.
 */
export function readmeSizedCorpus(limit = 24): BenchDocument[] {
  const readmes = installedReadmes();
  const sizes = readmes.map((doc) => doc.bytes).sort((a, b) => a - b);
  const low = sizes[Math.floor(sizes.length * 0.25)]!;
  const high = sizes[Math.floor(sizes.length * 0.75)]!;
  return readmes
    .filter((doc) => doc.bytes >= low && doc.bytes <= high)
    .slice(0, limit)
    .map((doc) => ({ ...doc, name: `readme:${doc.name}` }));
}

function installedReadmes(): BenchDocument[] {
  const modules = path.join(ROOT, 'node_modules');
  const found: BenchDocument[] = [];
  const visit = (dir: string, name: string) => {
    for (const entry of safeList(dir)) {
      if (/^readme\.md$/i.test(entry)) {
        const file = path.join(dir, entry);
        found.push({ name, file, bytes: statSync(file).size });
      }
    }
  };
  for (const entry of safeList(modules).sort()) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) for (const scoped of safeList(path.join(modules, entry)).sort()) visit(path.join(modules, entry, scoped), `${entry}/${scoped}`);
    else visit(path.join(modules, entry), entry);
  }
  return found.filter((doc) => readFileSync(doc.file, 'utf8').trim().length > 0);
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Words added by the edits: each edit of a run is new, as a writer's are. */
const ADDED = [
  'And a few words more.',
  'And then a few more words.',
  'Adding yet another clause here.',
  'With one sentence more.',
  'And the last words of all.',
  'Then something else entirely.',
];

/** The source with words added to the paragraph nearest its middle: `edit` picks which words. */
export function editedParagraph(source: string, edit = 0): string {
  const at = source.indexOf('\n\n', Math.floor(source.length / 2));
  return `${source.slice(0, at)} ${ADDED[edit % ADDED.length]}${source.slice(at)}`;
}
