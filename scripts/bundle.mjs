/**
 * The esbuild bundle of Quire's compiled JavaScript, shared by the npm CLI bundle
 * (bundle-cli.mjs) and the single executable (build-binary.mjs).
 *
 * Every module keeps its own location: `import.meta.url`, `__dirname` and `__filename` are
 * rewritten to where the module's file sits under a root named at run time by QUIRE_BUNDLE_URL —
 * dist's files under `dist/`, packages under `node_modules/` — so lookups of fonts and data files
 * beside a module keep working once many modules share one bundle file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';

/** Native addons stay outside the bundle and are loaded from node_modules. */
const NATIVE_EXTERNALS = ['better-sqlite3', '@resvg/resvg-js'];

/**
 * Bundles `entries` (paths under `dist` without `.js`, each put at `dist/<entry>.js`; or
 * `{ file, out }`, a file of the repository put at `<out>.js`) into `outdir`,
 * split into shared chunks so modules loaded on demand (MathJax, diagrams) stay on demand.
 * Returns the esbuild result and the modules of packages that read files beside themselves.
 *
 * `commonJs` turns every output file into a CommonJS script afterwards (imports of other chunks
 * become `require` calls), for bin/load-bundle.cjs, which compiles scripts from V8's code cache;
 * Node 20 has no such cache for ES modules.
 */
export async function bundleQuire({ repo, dist, outdir, entries, commonJs = false }) {
  const dataFiles = new Set();
  const result = await esbuild.build({
    absWorkingDir: repo,
    entryPoints: Object.fromEntries(
      entries.map((entry) => (typeof entry === 'string' ? [`dist/${entry}`, path.join(dist, `${entry}.js`)] : [entry.out, path.join(repo, entry.file)])),
    ),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'dist/chunks/[name]-[hash]',
    external: NATIVE_EXTERNALS,
    // Bundled CommonJS calls `require`; every ES module output file provides one before its code runs.
    banner: commonJs
      ? {}
      : { js: "import { createRequire as __quireCreateRequire } from 'node:module'; globalThis.require ??= __quireCreateRequire(import.meta.url);" },
    logLevel: 'warning',
    metafile: true,
    plugins: [deferred(), lazyTries(), shortcodeNames(), rewriteSources({ repo, dist, dataFiles }), namedExportsOfCommonJs()],
  });
  if (commonJs) await toCommonJs(Object.keys(result.metafile.outputs).map((file) => path.resolve(repo, file)));
  return { result, dataFiles };
}

/**
 * Rewrites ES module output files as CommonJS scripts, in place, with `import()` as `require`;
 * an `import.meta` left (it would be empty) stops the build. White space and comments go: Node
 * reads every loaded file whole at each start, and reads pure ASCII fastest (~10 ms of a cold
 * one-page render; names stay, so stack traces still read).
 */
async function toCommonJs(files) {
  for (const file of files) {
    if (!file.endsWith('.js')) continue;
    const converted = await esbuild.transform(readFileSync(file, 'utf8'), {
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      sourcefile: file,
      supported: { 'dynamic-import': false },
      minifyWhitespace: true,
    });
    const lost = converted.warnings.filter((warning) => warning.id === 'empty-import-meta');
    if (lost.length > 0) throw new Error(`${file}: ${lost.map((warning) => warning.text).join('; ')}`);
    writeFileSync(file, asciiOnly(converted.code));
  }
}

/**
 * Every character past ASCII as a `\u` escape (esbuild leaves some in regular expressions): the
 * same program, read by bin/load-bundle.cjs as Latin-1 — a third of the time of UTF-8 — into the
 * one-byte strings V8 scans fastest. One character past ASCII made the whole file two bytes a
 * character (render-command: 0.85 MB of source read as 1.7 MB).
 */
function asciiOnly(code) {
  // `\×` would become `\\u00d7`, a backslash and letters: stop rather than change the program.
  if (/\\[^\x00-\x7f]/.test(code)) throw new Error('a character past ASCII follows a backslash: escape it by hand');
  return code.replace(/[^\x00-\x7f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Modules that do heavy work when loaded but whose functions Quire rarely or never calls: each is
 * evaluated on its first call instead of at start-up. The value names the functions a stand-in
 * exports; null means the module itself is the function.
 */
const DEFERRED_FUNCTIONS = {
  // fontkit decodes WOFF2 with brotli, whose dictionary (122 KB, about 15 ms to build) is
  // unpacked on load; Quire's fonts are never WOFF2.
  'brotli/decompress.js': null,
  // PDFKit encrypts with AES, whose tables (about 10 ms) are built on load; Quire never encrypts.
  '@noble/ciphers/aes': ['cbc', 'ecb'],
};

/**
 * Deferred modules left out of the bundle, required from node_modules on their first call:
 * brotli's dictionary (465 KB of base64) was half of the bundle file every render reads first.
 */
const LEFT_OUTSIDE = new Set(['brotli/decompress.js']);

function deferred() {
  const names = Object.keys(DEFERRED_FUNCTIONS).map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return {
    name: 'deferred-functions',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(?:${names.join('|')})$`) }, (args) => {
        // The stand-in's own require reaches the real module.
        if (args.namespace === 'deferred') return LEFT_OUTSIDE.has(args.path) ? { path: args.path, external: true } : undefined;
        return { path: args.path, namespace: 'deferred', pluginData: { resolveDir: args.resolveDir } };
      });
      build.onLoad({ filter: /.*/, namespace: 'deferred' }, (args) => {
        const real = `require(${JSON.stringify(args.path)})`;
        const functions = DEFERRED_FUNCTIONS[args.path];
        const contents =
          functions === null
            ? `module.exports = (...args) => ${real}(...args);\n`
            : functions.map((name) => `export const ${name} = (...args) => ${real}.${name}(...args);\n`).join('');
        return { contents, resolveDir: args.pluginData.resolveDir, loader: 'js' };
      });
    },
  };
}

/**
 * Unicode tables that fontkit's own shapers and unicode-properties unpack at import (about 25 ms
 * of every start) though Quire shapes with HarfBuzz: each is unpacked on its first lookup instead.
 * Only tables read through `.get()` alone are rewritten; anything else stops the build.
 */
const LAZY_TRIE_MODULES = /node_modules[\\/](?:fontkit|unicode-properties)[\\/]dist[\\/]module\.mjs$/;
const TRIE = /^const (\$[\w$]+\$var\$trie) = (new \(0, \$[\w$]+\)\(.*\));$/gm;

function lazyTries() {
  return {
    name: 'lazy-tries',
    setup(build) {
      build.onLoad({ filter: LAZY_TRIE_MODULES }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const contents = source.replace(TRIE, (_, name, construction) => {
          const uses = source.split(name).length - 2; // less the declaration
          const lookups = source.split(`${name}.get(`).length - 1;
          if (uses !== lookups) throw new Error(`${args.path}: ${name} is used other than through .get()`);
          return `let ${name}Built;\nconst ${name} = { get: (codePoint) => (${name}Built ??= ${construction}).get(codePoint) };`;
        });
        if (contents === source) throw new Error(`${args.path}: no Unicode table found to defer (has the package changed?)`);
        return { contents, loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/**
 * gemoji is 390 KB of JavaScript describing every emoji, read whenever text holds a `:name:`
 * (any time of day such as 12:30:00 does): ~27 ms. Quire needs only its names, which the bundle
 * carries as one JSON string instead (~36 KB, parsed in well under a millisecond).
 */
function shortcodeNames() {
  return {
    name: 'shortcode-names',
    setup(build) {
      build.onResolve({ filter: /^gemoji$/ }, (args) => ({ path: args.path, namespace: 'shortcode-names' }));
      build.onLoad({ filter: /.*/, namespace: 'shortcode-names' }, async () => {
        const { nameToEmoji } = await import('gemoji');
        if (typeof nameToEmoji?.smile !== 'string') throw new Error('gemoji no longer exports nameToEmoji (has the package changed?)');
        return { contents: `export const nameToEmoji = JSON.parse(${JSON.stringify(JSON.stringify(nameToEmoji))});\n`, loader: 'js' };
      });
    },
  };
}

const MARKDOWN_IT_DECODE = /node_modules[\\/]markdown-it[\\/]node_modules[\\/]entities[\\/]dist[\\/]decode\.js$/;

/** Text replaced in packages' sources as they are bundled; a patch whose text is gone stops the build. */
const SOURCE_PATCHES = [
  // harfbuzzjs starts its WebAssembly with a top-level await, which a CommonJS script cannot hold:
  // in the bundle the start is exported as `ready` instead, which engine/text/harfbuzz.ts awaits
  // before it shapes. And it starts synchronously: Emscripten's own start reads the file and
  // instantiates asynchronously, and the tasks that finish it wait behind whatever the main thread
  // runs meanwhile (the Pandoc manual's 0.25 s parse) and behind V8's one helper thread — 60 ms
  // of a cold render spent idle. Compiling is lazy (about 1 ms) and instantiating takes ~4 ms.
  {
    file: /node_modules[\\/]harfbuzzjs[\\/]dist[\\/]index\.mjs$/,
    from: 'init(await createHarfBuzz());',
    to: [
      'export const ready = createHarfBuzz({ instantiateWasm(imports, done) {',
      "  const module = new WebAssembly.Module(process.getBuiltinModule('fs').readFileSync(new URL('harfbuzz.wasm', import.meta.url)));",
      '  done(new WebAssembly.Instance(module, imports), module);',
      '  return {};',
      '} }).then(init);',
    ].join('\n'),
  },
  // Its Emscripten glue imports `module` with `await import()`, which would become a `require` of
  // its own local variable of that name; it takes the built-in directly.
  { file: /node_modules[\\/]harfbuzzjs[\\/]dist[\\/]harfbuzz\.js$/, from: 'await import("module")', to: 'process.getBuiltinModule("module")' },
  // restructure, which fontkit reads font tables with, makes a TextDecoder for every string it
  // reads (each glyph name of a font's post table): ~11 ms of a cold CommonMark-spec render. A
  // decoder decodes each call afresh, so one per encoding serves them all.
  {
    file: /node_modules[\\/]restructure[\\/]src[\\/]DecodeStream\.js$/,
    from: 'const ENCODING_MAPPING = {',
    to: 'const DECODERS = new Map();\nconst ENCODING_MAPPING = {',
  },
  {
    file: /node_modules[\\/]restructure[\\/]src[\\/]DecodeStream\.js$/,
    from: 'let decoder = new TextDecoder(encoding);',
    to: 'let decoder = DECODERS.get(encoding);\n      if (!decoder) DECODERS.set(encoding, (decoder = new TextDecoder(encoding)));',
  },
  // markdown-it's copy of entities builds its HTML entity trie when loaded (~3.6 ms of every
  // start); it is built on the first decode that meets an `&` instead. Only this copy: htmlparser2's
  // (loaded with HTML alone) hands its trie to a decoder of its own.
  {
    file: /node_modules[\\/]markdown-it[\\/]node_modules[\\/]entities[\\/]dist[\\/]generated[\\/]decode-data-html\.js$/,
    from: 'export const htmlDecodeTree = /* #__PURE__ */ decodeTrieDict(',
    to: 'export const buildHtmlDecodeTree = () => decodeTrieDict(',
  },
  {
    file: MARKDOWN_IT_DECODE,
    from: 'import { htmlDecodeTree } from "./generated/decode-data-html.js";',
    to: 'import { buildHtmlDecodeTree } from "./generated/decode-data-html.js";\nlet htmlDecodeTree;',
  },
  { file: MARKDOWN_IT_DECODE, from: 'const decodeTree = htmlDecodeTree;', to: 'const decodeTree = (htmlDecodeTree ??= buildHtmlDecodeTree());' },
  { file: MARKDOWN_IT_DECODE, from: 'export { htmlDecodeTree } from "./generated/decode-data-html.js";', to: '' },
  // unicode-trie inflates its tables (deflated twice) with tiny-inflate, in JavaScript: ~10 ms of
  // every start for the line-breaking classes alone, against ~1 ms for Node's zlib.
  {
    file: /node_modules[\\/]unicode-trie[\\/]index\.js$/,
    from: "const inflate = require('tiny-inflate');",
    to: "const inflate = (source, target) => { const out = require('node:zlib').inflateRawSync(source); target.set(out); return target.subarray(0, out.length); };",
  },
];

/** The source of `file` with its patches applied, and whether any applied; a patch that no longer applies stops the build. */
function patchedSource(file) {
  let source = readFileSync(file, 'utf8');
  const patches = SOURCE_PATCHES.filter((candidate) => candidate.file.test(file));
  for (const patch of patches) {
    if (!source.includes(patch.from)) throw new Error(`${file}: "${patch.from}" not found (has the package changed?)`);
    source = source.replace(patch.from, patch.to);
  }
  return { source, patched: patches.length > 0 };
}

/**
 * Loads every module through its patches (above) and with its own location kept (see the top of
 * this file): esbuild gives a file's contents to the first plugin that returns them, so both
 * rewrites live in one.
 */
function rewriteSources({ repo, dist, dataFiles }) {
  return {
    name: 'rewrite-sources',
    setup(build) {
      build.onLoad({ filter: /\.(?:js|cjs|mjs)$/ }, (args) => {
        const { source, patched } = patchedSource(args.path);
        const usesUrl = source.includes('import.meta.url');
        const usesDir = /\b__(?:dirname|filename)\b/.test(source) && !/\b(?:const|let|var)\s+__(?:dirname|filename)\b/.test(source);
        if (!usesUrl && !usesDir) return patched ? { contents: source, loader: 'js', resolveDir: path.dirname(args.path) } : undefined;
        const place = JSON.stringify(rootedPath(args.path, { repo, dist }));
        const url = `new URL(${place}, process.env.QUIRE_BUNDLE_URL).href`;
        let contents = usesUrl ? source.replaceAll('import.meta.url', url) : source;
        if (usesDir) {
          const file = `decodeURIComponent(new URL(${place}, process.env.QUIRE_BUNDLE_URL).pathname)`;
          contents = `var __filename = ${file}, __dirname = ${file}.replace(/\\/[^/]*$/, '');\n${contents}`;
        }
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) dataFiles.add(args.path);
        return { contents, loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** A module's path under the run-time root: dist's files under `dist/`, packages under `node_modules/`. */
function rootedPath(file, { repo, dist }) {
  const relative = path.relative(dist, file);
  if (!relative.startsWith('..')) return `dist/${relative.split(path.sep).join('/')}`;
  return path.relative(repo, file).split(path.sep).join('/');
}

/**
 * `await import('cjs-package')` gives Node the module's named exports; esbuild's chunk for it
 * exports only `default`. Such imports go through a module re-exporting the names the package
 * really exports (read by loading it here, at build time).
 */
function namedExportsOfCommonJs() {
  const load = createRequire(import.meta.url);
  return {
    name: 'named-exports-of-commonjs',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || NATIVE_EXTERNALS.includes(args.path)) return undefined;
        const resolved = await build.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir });
        if (resolved.errors.length > 0 || !isCommonJs(resolved.path)) return undefined;
        return { path: resolved.path, namespace: 'commonjs-named' };
      });
      build.onLoad({ filter: /.*/, namespace: 'commonjs-named' }, (args) => {
        const names = Object.keys(load(args.path)).filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name));
        const module = JSON.stringify(args.path);
        return {
          contents: `const module = require(${module});\nexport default module;\nexport const { ${names.join(', ')} } = module;\n`,
          resolveDir: path.dirname(args.path),
        };
      });
    },
  };
}

function isCommonJs(file) {
  if (file.endsWith('.cjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type !== 'module';
  }
  return true;
}
