import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { explicitCurves } from '#engine/paint/explicit-curves.js';

describe('smooth curves written out for PDFKit (MathJax glyphs use runs of T)', () => {
  it('reflects each T about the current point from the control point before it', () => {
    assert.equal(explicitCurves('M0 0Q1 1 2 0T4 0T6 0Z'), 'M0 0Q1 1 2 0Q3 -1 4 0Q5 1 6 0Z');
  });

  it('starts a T or S after a line at the current point, and keeps relative and H/V moves', () => {
    assert.equal(explicitCurves('M0 0L2 0T4 2'), 'M0 0L2 0Q2 0 4 2');
    assert.equal(explicitCurves('M1 1h2v2s1 1 2 0'), 'M1 1L3 1L3 3C3 3 4 4 5 3');
    assert.equal(explicitCurves('M0 0C1 1 2 1 3 0S5 -1 6 0'), 'M0 0C1 1 2 1 3 0C4 -1 5 -1 6 0');
  });

  it('reads repeated arguments, implicit lines after M and packed arc flags', () => {
    assert.equal(explicitCurves('M0 0 1 1Q2 2 3 1 4 0 5 1T7 1'), 'M0 0L1 1Q2 2 3 1Q4 0 5 1Q6 2 7 1');
    assert.equal(explicitCurves('M0 0a1 1 0 011 1t1 1'), 'M0 0A1 1 0 0 1 1 1Q1 1 2 2');
  });

  it('leaves paths without smooth curves, and unreadable data, as they are', () => {
    assert.equal(explicitCurves('M0 0L1 1Q2 2 3 3Z'), 'M0 0L1 1Q2 2 3 3Z');
    assert.equal(explicitCurves('M0 0T1 x'), 'M0 0T1 x');
  });
});
