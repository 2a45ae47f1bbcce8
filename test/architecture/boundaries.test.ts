/**
 * The walls `npm run lint` enforces (.dependency-cruiser.cjs) hold on the tree as it is, and each
 * rule catches a violation planted for it: a copy of engine/ and src/ in a temporary folder gets
 * one offending module per rule, and dependency-cruiser must name every rule, once, and nothing
 * else — so a rule that stopped matching (a renamed folder, a broken pattern) fails here.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

/** One module per rule, each breaking exactly that rule. */
const PLANTED: Record<string, { file: string; text: string }> = {
  'engine-stands-alone': { file: 'engine/errors-planted.ts', text: "import type { Clock } from '../src/clock.js';\nexport type Planted = Clock;\n" },
  'pdfkit-only-in-paint': { file: 'engine/layout/pdfkit-planted.ts', text: "import type PDFDocument from 'pdfkit';\nexport type Planted = PDFDocument;\n" },
  'stage-order-1': {
    file: 'engine/parse/planted.ts',
    text: "import type { BlockCache } from '../layout/blocks/block-cache.js';\nexport type Planted = BlockCache;\n",
  },
  'stage-order-3': {
    file: 'engine/layout/planted.ts',
    text: "import type { PreviewPage } from '../preview/preview.js';\nexport type Planted = PreviewPage;\n",
  },
  'renderer-on-top': {
    file: 'engine/paint/renderer-planted.ts',
    text: "import type { Renderer } from '../renderer/renderer.js';\nexport type Planted = Renderer;\n",
  },
  'core-imports-no-door': {
    file: 'src/usage/planted.ts',
    text: "import type { ServiceCore } from '../http/service-core.js';\nexport type Planted = ServiceCore;\n",
  },
  'store-holds-no-plan-policy': { file: 'src/store/planted.ts', text: "import { PLANS } from '../limits/plans.js';\nexport const planted = PLANS;\n" },
  'no-cycles': { file: 'src/planted-a.ts', text: "import { b } from './planted-b.js';\nexport const a = () => b;\n" },
};

async function violations(root: string): Promise<{ rule: string; from: string }[]> {
  const cruiser = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const args = [cruiser, 'engine', 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'];
  const { stdout } = await run(process.execPath, args, { cwd: root, maxBuffer: 256 << 20 }).catch((error: { stdout: string }) => error);
  const report = JSON.parse(stdout) as { summary: { violations: { rule: { name: string }; from: string }[] } };
  return report.summary.violations.map(({ rule, from }) => ({ rule: rule.name, from }));
}

describe('the boundaries npm run lint enforces', () => {
  it('should find no violation in the tree as it is', async () => {
    assert.deepEqual(await violations(ROOT), []);
  });

  it('should catch a violation planted for each rule, and only those', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'quire-boundaries-'));
    try {
      for (const name of ['engine', 'src', 'tsconfig.json', 'tsconfig.base.json', '.dependency-cruiser.cjs']) {
        const compiled = path.join(ROOT, 'engine/dist');
        cpSync(path.join(ROOT, name), path.join(root, name), { recursive: true, filter: (from) => from !== compiled });
      }
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
      for (const { file, text } of Object.values(PLANTED)) writeFileSync(path.join(root, file), text);
      writeFileSync(path.join(root, 'src/planted-b.ts'), "import { a } from './planted-a.js';\nexport const b = () => a;\n");
      const found = await violations(root);
      const rules = [...new Set(found.map((violation) => violation.rule))].sort();
      assert.deepEqual(rules, Object.keys(PLANTED).sort(), JSON.stringify(found));
      for (const violation of found) assert.match(violation.from, /planted/, JSON.stringify(violation));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
