/**
 * A package-lock for a new project, cut from this repository's own: the packages a set of
 * dependencies needs, at the versions and integrity this repository installed. With it,
 * `npm ci --offline` installs from npm's cache alone (the repository's `npm ci` filled it), so a
 * test can install a packed package as a user would without reaching the registry.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [field: string]: unknown;
}

interface Lockfile {
  packages: Record<string, LockEntry>;
}

/** Where Node would find `name` from the package installed at `from` (a lock path such as `node_modules/a`). */
function resolve(packages: Lockfile['packages'], from: string, name: string): string | undefined {
  for (let at = from; ; ) {
    const candidate = `${at ? `${at}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!at) return undefined;
    const cut = at.lastIndexOf('node_modules/');
    at = cut <= 0 ? '' : at.slice(0, cut - 1);
  }
}

/**
 * The package.json dependencies and the lockfile of a project that depends on `tarball` (a packed workspace of this
 * repository, whose own entry is `workspace`) and on `extra` packages of this repository's tree.
 */
export function offlineLockfile(repositoryLock: string, options: { workspace: string; tarball: string; tarballPath: string; extra: string[] }) {
  const lock = JSON.parse(readFileSync(repositoryLock, 'utf8')) as Lockfile;
  const workspace = lock.packages[options.workspace];
  if (!workspace) throw new Error(`${options.workspace} is not in the lockfile`);
  const packages: Record<string, LockEntry> = {};
  const pending: [string, string][] = [
    ...Object.keys(workspace.dependencies ?? {}).map((dependency): [string, string] => ['', dependency]),
    ...options.extra.map((dependency): [string, string] => ['', dependency]),
  ];
  while (pending.length > 0) {
    const [from, dependency] = pending.pop()!;
    const at = resolve(lock.packages, from, dependency);
    if (!at || packages[at]) continue;
    const entry = lock.packages[at]!;
    packages[at] = entry;
    for (const next of [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}),
    ]) {
      pending.push([at, next]);
    }
  }
  const integrity = `sha512-${createHash('sha512').update(readFileSync(options.tarballPath)).digest('base64')}`;
  const packed = String(workspace.name);
  const dependencies: Record<string, string> = { [packed]: `file:${options.tarball}` };
  for (const dependency of options.extra) dependencies[dependency] = lock.packages[`node_modules/${dependency}`]!.version!;
  packages[`node_modules/${packed}`] = {
    ...workspace,
    resolved: `file:${options.tarball}`,
    integrity,
  };
  return {
    dependencies,
    lockfile: { name: 'consumer', lockfileVersion: 3, requires: true, packages: { '': { name: 'consumer', dependencies }, ...packages } },
  };
}
