/**
 * The entry of the single executable (see build-binary.mjs): extracts the bundled Quire — its
 * JavaScript, fonts, native addons and data files — once into a cache folder named by the
 * payload's hash, then runs the CLI from there. Later starts find the folder complete and only
 * start the CLI.
 *
 * Cache folder: QUIRE_CACHE_DIR, else $XDG_CACHE_HOME/quire, else ~/.cache/quire; kept private
 * to the user (mode 0700, owned by them), since code is loaded from it.
 */
'use strict';
const { getAsset } = require('node:sea');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { gunzipSync } = require('node:zlib');
const { createRequire } = require('node:module');

const id = getAsset('id', 'utf8');
const root = path.join(cacheBase(), id);
if (!fs.existsSync(path.join(root, '.complete'))) extract(root);
process.env.QUIRE_BUNDLE_ROOT = root;
process.env.QUIRE_BUNDLE_URL = pathToFileURL(`${root}/`).href;
createRequire(path.join(root, 'launch.cjs'))('./launch.cjs');

function cacheBase() {
  const base = process.env.QUIRE_CACHE_DIR || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'quire');
  fs.mkdirSync(base, { recursive: true, mode: 0o700 });
  const stat = fs.statSync(base);
  if (typeof process.getuid === 'function' && (stat.uid !== process.getuid() || (stat.mode & 0o022) !== 0)) {
    fail(`${base} must belong to this user and not be writable by others (set QUIRE_CACHE_DIR to another folder)`);
  }
  return base;
}

/** Unpacks into a folder of its own, then renames it into place, so a half-written folder is never used. */
function extract(target) {
  const archive = gunzipSync(Buffer.from(getAsset('payload')));
  const headerLength = archive.readUInt32BE(0);
  const index = JSON.parse(archive.subarray(4, 4 + headerLength).toString('utf8'));
  const start = 4 + headerLength;
  const temporary = `${target}.${process.pid}.tmp`;
  fs.rmSync(temporary, { recursive: true, force: true });
  for (const entry of index) {
    const file = path.join(temporary, entry.path);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, archive.subarray(start + entry.offset, start + entry.offset + entry.size));
  }
  fs.writeFileSync(path.join(temporary, '.complete'), '');
  try {
    fs.renameSync(temporary, target);
  } catch (error) {
    // Another start extracted the same payload first; use theirs.
    fs.rmSync(temporary, { recursive: true, force: true });
    if (!fs.existsSync(path.join(target, '.complete'))) throw error;
  }
}

function fail(message) {
  process.stderr.write(`quire: ${message}\n`);
  process.exit(1);
}
