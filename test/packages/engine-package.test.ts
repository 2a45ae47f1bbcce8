/**
 * The engine as a library user gets it: `npm pack` of engine/, installed by `npm ci` into a new
 * project on a PATH with no C compiler, make or Python, then used from a strict TypeScript
 * program (NodeNext, skipLibCheck off) and from a CommonJS script. The install reads npm's cache
 * alone (the lockfile is cut from this repository's: no test reaches past loopback). Prints the
 * installed size, the package count and the install time.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { offlineLockfile } from '../support/offline-lockfile.js';
import { pdftotext } from '../support/pdf-tools.js';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** npm's script, found as the shell would find `npm` (the Node running the tests may come without one). */
const NPM = realpathSync(
  (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((folder) => path.join(folder, 'npm'))
    .find((candidate) => existsSync(candidate)) ?? 'npm',
);
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

const TS_PROGRAM = `import { writeFileSync } from 'node:fs';
import { render, type RenderOptions, type RenderResult } from '@quire/engine';

const options: RenderOptions = { features: { math: true } };
const result: RenderResult = await render('# From TypeScript\\n\\nStrict, NodeNext, every declaration checked.', options);
writeFileSync('typescript.pdf', result.pdf);
`;

/** A misspelt option must not type-check. */
const TS_MISSPELT = `import { render } from '@quire/engine';

await render('# x', { features: { them: 'dark' } });
`;

const CJS_SCRIPT = `const { writeFileSync } = require('node:fs');
const { render } = require('@quire/engine');

render('# From CommonJS\\n\\nLoaded with require().').then((result) => writeFileSync('commonjs.pdf', result.pdf));
`;

const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, types: ['node'], outDir: 'out' },
};

/** The folder a process sees as its whole PATH: Node and npm, and no compiler, make or Python. */
function bareBin(folder: string): string {
  const bin = path.join(folder, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, path.join(bin, 'node'));
  symlinkSync(NPM, path.join(bin, 'npm'));
  return bin;
}

function folderBytes(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) total += folderBytes(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

describe('the engine package, installed where nothing can be compiled', () => {
  let work: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let installed: { packages: string[]; withInstallScripts: string[] };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'quire-engine-package-'));
    env = { HOME: process.env.HOME, PATH: bareBin(work), npm_config_cache: process.env.npm_config_cache };
    const packed = await run(process.execPath, [NPM, 'pack', '--workspace', 'engine', '--pack-destination', work, '--json'], {
      cwd: ROOT,
      maxBuffer: 64 << 20,
    });
    const filename = (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename;
    project = path.join(work, 'project');
    mkdirSync(project);
    const { dependencies, lockfile } = offlineLockfile(path.join(ROOT, 'package-lock.json'), {
      workspace: 'engine',
      tarball: `../${filename}`,
      tarballPath: path.join(work, filename),
      extra: ['@types/node'],
    });
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }));
    writeFileSync(path.join(project, 'package-lock.json'), JSON.stringify(lockfile));
    const started = performance.now();
    await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: project, env, maxBuffer: 64 << 20 });
    const seconds = (performance.now() - started) / 1000;
    const lock = JSON.parse(readFileSync(path.join(project, 'node_modules/.package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const entries = Object.entries(lock.packages).filter(([name]) => !name.includes('@types/'));
    installed = { packages: entries.map(([name]) => name), withInstallScripts: entries.filter(([, entry]) => entry.hasInstallScript).map(([name]) => name) };
    const megabytes = folderBytes(path.join(project, 'node_modules')) / 1e6;
    process.stdout.write(`# engine install: ${installed.packages.length} packages, ${megabytes.toFixed(1)} MB, ${seconds.toFixed(1)} s\n`);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('should install with no install script anywhere in its tree and none of the service', () => {
    assert.deepEqual(installed.withInstallScripts, []);
    for (const service of ['better-sqlite3', 'pg', 'hono', '@modelcontextprotocol/sdk', 'pino', 'zod', 'node-forge', 'pkijs']) {
      assert.ok(!installed.packages.includes(`node_modules/${service}`), `${service} is installed`);
    }
  });

  it('should type-check a strict NodeNext program against its declarations alone, and render from it', async () => {
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ ...TSCONFIG, include: ['main.ts'] }));
    writeFileSync(path.join(project, 'main.ts'), TS_PROGRAM);
    await run(process.execPath, [TSC, '-p', project], { cwd: project, env }).catch((error: { stdout: string }) => assert.fail(`tsc: ${error.stdout}`));
    await run('node', ['out/main.js'], { cwd: project, env });
    const text = await pdftotext(readFileSync(path.join(project, 'typescript.pdf')));
    assert.match(text, /From TypeScript/);
  });

  it('should refuse a misspelt option at compile time', async () => {
    writeFileSync(path.join(project, 'tsconfig.misspelt.json'), JSON.stringify({ ...TSCONFIG, include: ['misspelt.ts'] }));
    writeFileSync(path.join(project, 'misspelt.ts'), TS_MISSPELT);
    const failed = await run(process.execPath, [TSC, '-p', path.join(project, 'tsconfig.misspelt.json'), '--noEmit'], { cwd: project, env }).then(
      () => undefined,
      (error: { stdout: string }) => error.stdout,
    );
    assert.match(failed ?? 'compiled', /misspelt\.ts.*'them' does not exist/s);
  });

  it('should load with require() from a CommonJS script', async () => {
    writeFileSync(path.join(project, 'render.cjs'), CJS_SCRIPT);
    await run('node', ['render.cjs'], { cwd: project, env });
    assert.match(await pdftotext(readFileSync(path.join(project, 'commonjs.pdf'))), /From CommonJS/);
  });
});
