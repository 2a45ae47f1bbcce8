import fs, { constants } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ResourceLoadError, type LoadContext, type LoadedResource, type ResourceLoader } from './loader.js';

/**
 * Loads relative paths (and file: URLs) against a base folder, never from outside a root folder
 * (the base itself unless given): `..` and symbolic links that leave it are refused. Only
 * regular files are read, checked on the open file itself (opened without blocking, so a FIFO
 * put in a file's place cannot hang the render).
 */
export function folderLoader(baseDir: string, rootDir: string = baseDir): ResourceLoader {
  const base = path.resolve(baseDir);
  const root = path.resolve(rootDir);
  if (!isInside(root, base)) throw new RangeError(`the folder ${base} is outside its root ${root}`);
  return {
    async load(url: string, context: LoadContext): Promise<LoadedResource> {
      // fs.promises is taken here, not imported: loading it is ~3 ms of every start, and most documents show no local image.
      const { open, realpath } = fs.promises;
      const target = resolveInside(base, root, url);
      let real: string;
      try {
        real = await realpath(target);
      } catch {
        throw new ResourceLoadError('not_found', 'no such file');
      }
      const realRoot = await realpath(root);
      if (!isInside(realRoot, real)) throw new ResourceLoadError('forbidden', 'the file is outside the root folder');
      const file = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        const info = await file.stat();
        if (!info.isFile()) throw new ResourceLoadError('not_found', 'not a file');
        if (info.size > context.remainingBytes) throw new ResourceLoadError('too_large', 'the file exceeds the resource budget');
        return { bytes: new Uint8Array(await file.readFile()) };
      } finally {
        await file.close();
      }
    },
  };
}

function resolveInside(base: string, root: string, url: string): string {
  const target = localPath(base, url);
  if (!isInside(root, target)) throw new ResourceLoadError('forbidden', 'the path leaves the root folder');
  return target;
}

/** The file a relative path or file: URL names from `base`, wherever it is; ResourceLoadError when it names none. */
export function localPath(base: string, url: string): string {
  if (!/^file:/i.test(url) && /^[a-z][a-z0-9+.-]*:/i.test(url)) {
    throw new ResourceLoadError('unsupported_scheme', 'only local paths are loaded from a folder');
  }
  let relative: string;
  try {
    relative = /^file:/i.test(url) ? fileURLToPath(url) : decodeURIComponent(url.split(/[?#]/)[0]!);
  } catch {
    // A file: URL with a host or an encoded slash, or broken percent-encoding.
    throw new ResourceLoadError('not_found', 'not a path to a file');
  }
  return path.resolve(base, relative);
}

function isInside(base: string, target: string): boolean {
  const rel = path.relative(base, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
