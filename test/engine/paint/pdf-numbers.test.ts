/**
 * Numbers in content streams: `num` writes what `String(Math.round(value * 1000) / 1000)` writes
 * — three decimals at most, no trailing zeros, no exponent, no negative zero — for any value a
 * page can hold, and refuses what is not a number.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { num } from '#engine/paint/pdf-values.js';

function reference(value: number): string {
  const rounded = Math.round(value * 1000) / 1000;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

test('num writes numbers as the reference formula does', () => {
  const cases = [
    0,
    -0,
    1,
    -1,
    0.5,
    -0.5,
    0.0004,
    -0.0004,
    0.0005,
    -0.0005,
    1.0005,
    -1.0005,
    12.3456,
    -12.3455,
    595.28,
    841.89,
    1e-7,
    123456.7895,
    1e12 + 0.25,
    -(1e12 + 0.125),
    99.9996,
    0.1 + 0.2,
  ];
  for (const value of cases) assert.equal(num(value), reference(value), `num(${value})`);
  // Deterministic pseudo-random values from a thousandth of a point to a trillion points.
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let k = 0; k < 200_000; k++) {
    const value = (next() - 0.5) * 10 ** Math.floor(next() * 16 - 4);
    assert.equal(num(value), reference(value), `num(${value})`);
  }
});

test('num writes no exponent and no negative zero', () => {
  assert.equal(num(-0.0001), '0');
  assert.equal(num(1e-9), '0');
  assert.equal(num(2.5e-3), '0.003');
  assert.equal(num(-1234.5), '-1234.5');
  assert.equal(num(10), '10');
});

test('num refuses what is not a finite number', () => {
  for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    assert.throws(() => num(value), /not a finite number/);
  }
});
