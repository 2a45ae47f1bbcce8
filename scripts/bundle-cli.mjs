#!/usr/bin/env node
/**
 * Bundles the `quire` command into dist/bundle/ (run by `npm run build`): Node then reads a few
 * large files instead of resolving and loading hundreds of modules, which is most of a cold
 * `quire render`. bin/quire.js runs the bundle, with QUIRE_BUNDLE_URL naming this repository so
 * every bundled module finds its fonts and data files where they are; render workers still load
 * the unbundled modules of dist/.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleQuire } from './bundle.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(REPO, 'dist/bundle');
rmSync(OUT, { recursive: true, force: true });
await bundleQuire({ repo: REPO, dist: path.join(REPO, 'dist'), outdir: OUT, entries: ['src/cli/main'] });
