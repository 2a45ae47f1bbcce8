/** The bounded JSON reader both doors share: the same value as JSON.parse within bounds, a refusal past them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES, readBoundedJson } from '../../../src/admission/bounded-json.js';

const read = (text: string | Buffer) => readBoundedJson(typeof text === 'string' ? Buffer.from(text) : text);
const refusal = (text: string | Buffer) => {
  const outcome = read(text);
  return outcome.ok ? undefined : outcome.refusal;
};

describe('bounded JSON reader', () => {
  it('should read any JSON value within its bounds exactly as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => {
        const text = JSON.stringify(value);
        assert.deepEqual(read(text), { ok: true, value: JSON.parse(text) });
      }),
      { numRuns: 500 },
    );
  });

  it('should accept 32 levels of nesting and refuse 33', () => {
    const nested = (depth: number) => `${'[{"a":'.repeat(depth / 2)}0${'}]'.repeat(depth / 2)}`;
    assert.equal(MAX_JSON_DEPTH, 32);
    assert.equal(read(nested(32)).ok, true);
    assert.equal(refusal(`[${nested(32)}]`), 'json_depth_limit');
  });

  it('should accept 10,000 values and refuse 10,001', () => {
    const zeros = (count: number) => `[${new Array(count).fill(0).join(',')}]`;
    assert.equal(MAX_JSON_VALUES, 10_000);
    assert.equal(read(zeros(MAX_JSON_VALUES)).ok, true);
    assert.equal(refusal(zeros(MAX_JSON_VALUES + 1)), 'json_value_limit');
  });

  it('should not count brackets, commas or escaped quotes inside strings', () => {
    const text = JSON.stringify({ markdown: `${'[{,'.repeat(50_000)} \\" \\\\" [[[`, tail: 'a\\' });
    assert.deepEqual(read(text), { ok: true, value: JSON.parse(text) });
    // A string ending in an even run of backslashes is closed by the quote after them.
    assert.deepEqual(read('["a\\\\\\\\", [1]]'), { ok: true, value: ['a\\\\', [1]] });
  });

  it('should refuse what is not JSON, or not UTF-8, with its own reason', () => {
    assert.equal(refusal('["never closed'), 'invalid_json');
    assert.equal(refusal('{"markdown": '), 'invalid_json');
    assert.equal(refusal(Buffer.from([0x22, 0xff, 0xfe, 0x22])), 'invalid_encoding');
  });

  it('should refuse 40 MB of nested arrays after one pass over its bytes', () => {
    assert.equal(refusal(Buffer.alloc(40 * 1024 * 1024, '[')), 'json_depth_limit');
    assert.equal(refusal(Buffer.from(`[${'[],'.repeat(20_000)}[]]`)), 'json_value_limit');
  });
});
