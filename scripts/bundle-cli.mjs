#!/usr/bin/env node
/**
 * Bundles the `quire` command into dist/bundle/ (run by `npm run build`): Node then reads a few
 * large files instead of resolving and loading hundreds of modules, which is most of a cold
 * `quire render`. The files are CommonJS scripts, which bin/load-bundle.cjs compiles from V8's
 * code cache; this script writes that cache by rendering sample documents with it. Render
 * workers still load the unbundled modules of dist/.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleQuire } from './bundle.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(REPO, 'dist/bundle');
/**
 * Rendered in name order, each in a process of its own: what most documents are made of first,
 * then formulas and diagrams. A file keeps the cache of the first render that loads it, so a
 * plain render does not read code only the later samples ran.
 */
const SAMPLES = path.join(REPO, 'scripts/code-cache-samples');

rmSync(OUT, { recursive: true, force: true });
await bundleQuire({ repo: REPO, dist: path.join(REPO, 'dist'), outdir: OUT, entries: ['src/cli/main'], commonJs: true });

const pdf = path.join(tmpdir(), `quire-code-cache-${process.pid}.pdf`);
try {
  for (const sample of readdirSync(SAMPLES).sort()) {
    // What the render says goes to the build's output only if it fails.
    execFileSync(process.execPath, [path.join(REPO, 'scripts/write-code-cache.mjs'), 'render', path.join(SAMPLES, sample), '-o', pdf], { stdio: 'pipe' });
  }
} finally {
  rmSync(pdf, { force: true });
}
