#!/usr/bin/env node
/**
 * Bundles the web editor's browser code (CodeMirror 6 and Quire's own) and its styles into
 * dist/editor/ under content-hashed names, with manifest.json naming them for the page (run by
 * `npm run build`). Everything the page loads comes from here: the service's own origin.
 */
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(REPO, 'dist/editor');
const CLIENT = path.join(REPO, 'src/editor/client');

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const result = await build({
  entryPoints: { editor: path.join(CLIENT, 'main.ts'), 'editor-style': path.join(CLIENT, 'editor.css') },
  bundle: true,
  format: 'esm',
  target: ['chrome110', 'firefox115', 'safari16'],
  minify: true,
  legalComments: 'eof',
  outdir: OUT,
  entryNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
});
const names = {};
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (!output.entryPoint) continue;
  names[output.entryPoint.endsWith('.css') ? 'style' : 'script'] = path.basename(file);
}
writeFileSync(path.join(OUT, 'manifest.json'), `${JSON.stringify(names, null, 2)}\n`);
