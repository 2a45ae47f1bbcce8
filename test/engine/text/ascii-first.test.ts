/**
 * Patterns tried by their ASCII twins on ASCII text (engine/text/ascii-first.ts): on every ASCII
 * string of up to three characters each twin says what its Unicode pattern says, and text past
 * ASCII still goes to the Unicode pattern.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AsciiFirst } from '#engine/text/ascii-first.js';
import { CASE_JOIN, ENDS_LOWER, STARTS_UPPER } from '#engine/text/case-join-kerning.js';
import { HYPHENATABLE } from '#engine/text/hyphenation.js';

const PATTERNS: Record<string, AsciiFirst> = { CASE_JOIN, ENDS_LOWER, STARTS_UPPER, HYPHENATABLE };

function* asciiStrings(longest: number): Generator<string> {
  yield '';
  let level = [''];
  for (let length = 1; length <= longest; length++) {
    const next: string[] = [];
    for (const prefix of level) for (let code = 0; code < 128; code++) next.push(prefix + String.fromCharCode(code));
    yield* next;
    level = next;
  }
}

test('each ASCII twin says what its Unicode pattern says on ASCII text', () => {
  for (const [name, pattern] of Object.entries(PATTERNS)) {
    for (const text of asciiStrings(3)) {
      if (pattern.ascii.test(text) !== pattern.unicode.test(text)) assert.fail(`${name}: the twins disagree on ${JSON.stringify(text)}`);
      assert.equal(pattern(text), pattern.unicode.test(text));
    }
  }
});

test('text past ASCII is tested by the Unicode pattern', () => {
  assert.equal(CASE_JOIN('diffŴords'), true);
  assert.equal(CASE_JOIN('éA'), true);
  assert.equal(ENDS_LOWER('é'), true);
  assert.equal(STARTS_UPPER('Ǆ'), true, 'a title-case letter starts upper');
  assert.equal(HYPHENATABLE('Straße'), true);
  assert.equal(HYPHENATABLE('naïve'), true);
  assert.equal(HYPHENATABLE('x²'), false);
});
