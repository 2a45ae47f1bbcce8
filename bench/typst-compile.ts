/**
 * Typst's compiler (npm `@myriaddreamin/typst-ts-node-compiler`, installed beside Quire in
 * .bench/peers, never a dependency of Quire), run as the peers bench runs it:
 *
 *   node dist/bench/typst-compile.js cold INPUT.typ OUTPUT.pdf    one compile to a PDF file, as a CLI would
 *   node dist/bench/typst-compile.js warm INPUT.typ [RUNS]        JSON: warm times (medians of RUNS, 5 by default), fresh and after an edit
 *
 * Warm "fresh" empties Typst's memo cache before each compile (a document it has not seen);
 * "incremental" compiles again after one paragraph changed (its memoisation at work), each time
 * with other words, as a writer's edits are (no compile meets a source it has seen).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { median } from './engine-bench.js';
import { editedParagraph, ROOT } from './corpus.js';

export const TYPST_MODULE = path.join(ROOT, '.bench/peers/node_modules/@myriaddreamin/typst-ts-node-compiler');

interface Compiler {
  compile(args: { mainFileContent: string }): { result: unknown; hasError(): boolean; printErrors(): void };
  pdf(document: unknown): Buffer;
  evictCache(maxAge: number): void;
}

function compiler(): Compiler {
  const { NodeCompiler } = createRequire(import.meta.url)(TYPST_MODULE) as { NodeCompiler: { create(args: unknown): Compiler } };
  // Quire's own faces, so both set the same glyphs.
  return NodeCompiler.create({ fontArgs: [{ fontPaths: ['source-serif-4', 'jetbrains-mono'].map((face) => path.join(ROOT, 'engine/fonts', face)) }] });
}

function toPdf(typst: Compiler, source: string): Buffer {
  const compiled = typst.compile({ mainFileContent: source });
  if (compiled.hasError()) {
    compiled.printErrors();
    throw new Error('typst could not compile the document');
  }
  return typst.pdf(compiled.result);
}

function timed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const [mode, input, outputOrRuns] = process.argv.slice(2);
  const source = readFileSync(input!, 'utf8');
  const typst = compiler();
  if (mode === 'cold') {
    writeFileSync(outputOrRuns!, toPdf(typst, source));
  } else {
    const runs = Number(outputOrRuns ?? 5);
    toPdf(typst, source);
    const fresh = Array.from({ length: runs }, () => {
      typst.evictCache(0);
      return timed(() => toPdf(typst, source));
    });
    toPdf(typst, source);
    const incremental = Array.from({ length: runs }, (_, run) => timed(() => toPdf(typst, editedParagraph(source, run))));
    console.log(JSON.stringify({ freshMs: median(fresh), incrementalMs: median(incremental) }));
  }
}
