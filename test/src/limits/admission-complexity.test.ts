/**
 * Nothing the service runs on a request before admitting it costs more than linear time in the
 * body: each reader — the raw body's UTF-8 decoding, the bounded JSON reader, the measurement of
 * the document as sent — is given adversarial inputs of 1 MiB and 8 MiB, and the larger may cost
 * at most about twelve times the smaller. A ratio, not a timed bound: it holds on a slow machine
 * and fails on a quadratic pass (which would cost 64 times). And linear with a small constant:
 * an adversarial mebibyte costs at most MOST_OVER_PROSE times a mebibyte of plain prose, which a
 * pass that reads each character a thousand times (nested images, each sliced up to a label's
 * 999 characters) does not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readBoundedJson } from '../../../src/admission/bounded-json.js';
import { measureDocument } from '../../../src/limits/budgets.js';
import { parseRenderRequest } from '../../../src/render/render-request.js';

const MIB = 1 << 20;
const MOST_RATIO = 12;
/** Below this a run is noise (a large string's first allocation, a collection): a quadratic pass takes seconds at 1 MiB. */
const FLOOR_MS = 10;
const MOST_OVER_PROSE = 40;
const PROSE = (size: number) => 'Words of ordinary prose, with a [link](https://example.com/) now and then.\n'.repeat(size / 75);

/** Texts of about `size` characters built to hurt a scanner. */
const ADVERSARIAL: Record<string, (size: number) => string> = {
  'nested images': (size) => '!['.repeat(size / 4) + ']'.repeat(size / 4),
  'nested images with spaces and a definition': (size) => '[a b]: https://example.com/x.png\n\n' + '![a  b '.repeat(size / 14) + ']'.repeat(size / 14),
  "groups of images nested to a label's length": (size) =>
    '[x]: https://example.com/x.png\n\n' + `${'![x  '.repeat(160)}${']'.repeat(160)}\n`.repeat(size / 961),
  'unclosed images': (size) => '!['.repeat(size / 2),
  'unclosed brackets': (size) => '['.repeat(size),
  'closing brackets': (size) => ']'.repeat(size),
  backslashes: (size) => '\\'.repeat(size),
  'escaped brackets': (size) => '\\['.repeat(size / 2),
  'a long line without spaces': (size) => 'x'.repeat(size),
  'an unclosed destination': (size) => '![a](' + 'x'.repeat(size),
  'many reference images': (size) => '[a]: https://example.com/a.png\n\n' + '![a]'.repeat(size / 4),
  'collapsed references to long labels': (size) => '![x][' + 'y'.repeat(998) + ']'.repeat(size / 1004),
  'deep lists': (size) => '- '.repeat(size / 2),
  'deep quotes': (size) => '> '.repeat(size / 2),
  'entity storm': (size) => '&amp;&#x41;&#65;'.repeat(size / 16),
  'backtick runs of growing length': (size) =>
    Array.from({ length: 1400 }, (_, i) => '`'.repeat(i + 1))
      .join('a')
      .padEnd(size, '`'),
  'unpaired backticks': (size) => '`a'.repeat(size / 2),
  'fence lines': (size) => '```\n~~~\n'.repeat(size / 8),
  'unclosed img tags': (size) => '<img src=x '.repeat(size / 11),
  'srcset candidates': (size) => `<img srcset="${'a 1x,'.repeat(size / 5)}">`,
};

/**
 * The least CPU time (milliseconds) of a few runs of each, taken in turns: CPU time, not time on
 * the clock, so that other processes on a busy machine (the rest of the suite) do not count.
 */
function costs(...works: (() => unknown)[]): number[] {
  const best = works.map(() => Number.POSITIVE_INFINITY);
  for (let run = 0; run < 3; run++) {
    works.forEach((work, index) => {
      const started = process.cpuUsage();
      work();
      const used = process.cpuUsage(started);
      best[index] = Math.min(best[index]!, (used.user + used.system) / 1000);
    });
  }
  return best;
}

async function costAsync(work: () => Promise<unknown>): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const started = process.cpuUsage();
    await work().catch(() => undefined);
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

function assertLinear(name: string, small: number, large: number): void {
  const ratio = large / Math.max(small, FLOOR_MS);
  assert.ok(ratio <= MOST_RATIO, `${name}: 1 MiB ${small.toFixed(1)} ms, 8 MiB ${large.toFixed(1)} ms (×${ratio.toFixed(1)})`);
}

describe('what runs on a request before admission is linear in its body', () => {
  const features = { images: true, html_blocks: true };
  const prose = PROSE(MIB);
  for (const [name, make] of Object.entries(ADVERSARIAL)) {
    it(`should measure ${name} in linear time`, () => {
      const [small, large] = [make(MIB), make(8 * MIB)];
      const [smallCost, largeCost, proseCost] = costs(
        () => measureDocument(small, features),
        () => measureDocument(large, features),
        () => measureDocument(prose, features),
      );
      assertLinear(name, smallCost!, largeCost!);
      assert.ok(smallCost! <= MOST_OVER_PROSE * Math.max(proseCost!, 1), `${name}: ${smallCost!.toFixed(1)} ms a MiB, prose ${proseCost!.toFixed(1)} ms`);
    });
  }

  it('should read JSON bodies in linear time, string escapes included', () => {
    for (const [name, make] of Object.entries({ ...ADVERSARIAL, 'escape storm': (size: number) => '\\u0041\\n'.repeat(size / 8) })) {
      const body = (size: number) => Buffer.from(JSON.stringify({ markdown: make(size) }));
      const [small, large] = [body(MIB), body(8 * MIB)];
      const [smallCost, largeCost] = costs(
        () => readBoundedJson(small),
        () => readBoundedJson(large),
      );
      assertLinear(name, smallCost!, largeCost!);
    }
  });

  it('should decode raw Markdown bodies in linear time, invalid UTF-8 included', async () => {
    const bodies: Record<string, (size: number) => Uint8Array> = {
      'ASCII text': (size) => Buffer.from('![x]('.repeat(size / 5)),
      'four-byte characters': (size) => Buffer.from('𝄞'.repeat(size / 4)),
      'a bad byte at the end': (size) => Buffer.concat([Buffer.alloc(size - 1, 0x61), Buffer.from([0xff])]),
    };
    for (const [name, make] of Object.entries(bodies)) {
      const [small, large] = [make(MIB), make(8 * MIB)];
      const parse = (bytes: Uint8Array) => () => parseRenderRequest({ bytes, contentType: 'text/markdown' });
      assertLinear(name, await costAsync(parse(small)), await costAsync(parse(large)));
    }
  });
});
