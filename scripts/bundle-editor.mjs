#!/usr/bin/env node
/**
 * Bundles the web editor's browser code (CodeMirror 6 and Quire's own) and its styles into
 * dist/editor/ under content-hashed names, with manifest.json naming them for the page (run by
 * `npm run build`). Everything the page loads comes from here: the service's own origin.
 */
import { build } from 'esbuild';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
appendFileSync(path.join(OUT, names.script), licences(Object.keys(result.metafile.inputs)));

/** The licence of every package bundled into the script, as a closing comment: what MIT asks of a copy. */
function licences(inputs) {
  const packages = new Set();
  for (const input of inputs) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.add(match[1]);
  }
  const parts = [...packages].sort().map((name) => {
    const root = path.join(REPO, 'node_modules', name);
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    const file = readdirSync(root).find((entry) => /^licen[cs]e/i.test(entry));
    const text = file && existsSync(path.join(root, file)) ? readFileSync(path.join(root, file), 'utf8').trim() : `Licence: ${manifest.license}`;
    return `${name}@${manifest.version} (${manifest.license})\n\n${text}`;
  });
  return `\n/*! Third-party code bundled above, with its licences:\n\n${parts.join('\n\n---\n\n').replaceAll('*/', '* /')}\n*/\n`;
}
