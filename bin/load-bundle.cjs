/**
 * Runs the CommonJS bundle of the `quire` command (scripts/bundle-cli.mjs) with V8's code cache.
 *
 * Each bundle file is compiled as a script from the bytecode its `.v8cache` file holds, written
 * by the build after a sample render: the functions a render calls are then neither parsed nor
 * compiled again, which is most of what a cold `quire render` spent before its own work. V8
 * refuses a cache made by another V8 or with other flags; the file is then compiled from source,
 * as Node would.
 */
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const vm = require('node:vm');

const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {';

/** Loaded bundle files by path, with the scripts they were compiled as. */
const loaded = new Map();

const REPOSITORY = new URL('../', pathToFileURL(__filename));
const BUNDLE_DIR = decodeURIComponent(new URL('dist/bundle/', REPOSITORY).pathname);
const CLI = new URL('dist/bundle/dist/src/cli/main.js', REPOSITORY);

function hasBundle() {
  return existsSync(CLI);
}

/**
 * Runs the bundled command. With `writeCache`, every bundle file loaded that has no code cache
 * yet is written one when the process exits, holding whatever it compiled by then.
 */
function runBundle({ writeCache = false } = {}) {
  // Bundled modules find their files under this root (see scripts/bundle.mjs).
  process.env.QUIRE_BUNDLE_URL = REPOSITORY.href;
  if (writeCache) process.on('exit', writeCaches);
  load(decodeURIComponent(CLI.pathname));
}

function load(file) {
  const known = loaded.get(file);
  if (known) return known.module.exports;
  // The build writes the bundle in ASCII alone (scripts/bundle.mjs), which Latin-1 reads fastest.
  const source = `${WRAPPER_START}${readFileSync(file, 'latin1')}\n})`;
  const cacheFile = `${file}.v8cache`;
  const script = new vm.Script(source, {
    filename: file,
    cachedData: existsSync(cacheFile) ? readFileSync(cacheFile) : undefined,
  });
  const module = { exports: {} };
  loaded.set(file, { module, script });
  script.runInThisContext()(module.exports, requireFrom(file), module, file, path.dirname(file));
  return module.exports;
}

/** `require` for a bundle file: the bundle's other scripts through `load`, anything else through Node. */
function requireFrom(file) {
  const nodeRequire = createRequire(file);
  return (specifier) => {
    const target = /^\.\.?\//.test(specifier) ? path.resolve(path.dirname(file), specifier) : null;
    return target !== null && target.startsWith(BUNDLE_DIR) && target.endsWith('.js') ? load(target) : nodeRequire(specifier);
  };
}

function writeCaches() {
  for (const [file, { script }] of loaded) {
    if (!existsSync(`${file}.v8cache`)) writeFileSync(`${file}.v8cache`, script.createCachedData());
  }
}

module.exports = { hasBundle, runBundle };
