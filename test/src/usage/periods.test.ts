import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anchorAt, scheduledPeriod } from '../../../src/store/periods.js';

const at = (iso: string) => Date.parse(iso);
const span = (anchor: { day: number; from: number }, now: string) => {
  const { start, end } = scheduledPeriod(anchor, at(now));
  return [new Date(start).toISOString(), new Date(end).toISOString()];
};

describe('usage periods', () => {
  it('should start the first period at 00:00 UTC on the sign-up day and end on the same day next month', () => {
    const anchor = anchorAt(at('2025-01-15T12:34:56Z'), { startOfDay: true });
    assert.deepEqual(span(anchor, '2025-01-15T12:34:56Z'), ['2025-01-15T00:00:00.000Z', '2025-02-15T00:00:00.000Z']);
    assert.deepEqual(span(anchor, '2025-02-14T23:59:59Z'), ['2025-01-15T00:00:00.000Z', '2025-02-15T00:00:00.000Z']);
    assert.deepEqual(span(anchor, '2025-02-15T00:00:00Z'), ['2025-02-15T00:00:00.000Z', '2025-03-15T00:00:00.000Z']);
    assert.deepEqual(span(anchor, '2026-01-01T00:00:00Z'), ['2025-12-15T00:00:00.000Z', '2026-01-15T00:00:00.000Z']);
  });

  it('should use the last day of shorter months without moving the anchor', () => {
    const anchor = anchorAt(at('2025-01-31T08:00:00Z'), { startOfDay: true });
    assert.deepEqual(span(anchor, '2025-02-10T00:00:00Z'), ['2025-01-31T00:00:00.000Z', '2025-02-28T00:00:00.000Z']);
    assert.deepEqual(span(anchor, '2025-03-01T00:00:00Z'), ['2025-02-28T00:00:00.000Z', '2025-03-31T00:00:00.000Z']);
    assert.deepEqual(span(anchor, '2025-04-30T00:00:00Z'), ['2025-04-30T00:00:00.000Z', '2025-05-31T00:00:00.000Z']);
    const leap = anchorAt(at('2024-01-30T08:00:00Z'), { startOfDay: true });
    assert.deepEqual(span(leap, '2024-02-29T10:00:00Z'), ['2024-02-29T00:00:00.000Z', '2024-03-30T00:00:00.000Z']);
  });

  it('should run a period opened by a plan change from that instant to the next anchor day', () => {
    const anchor = anchorAt(at('2025-03-10T14:30:00Z'), { startOfDay: false });
    assert.deepEqual(span(anchor, '2025-03-10T14:30:00Z'), ['2025-03-10T14:30:00.000Z', '2025-04-10T00:00:00.000Z']);
    assert.deepEqual(span(anchor, '2025-04-10T00:00:00Z'), ['2025-04-10T00:00:00.000Z', '2025-05-10T00:00:00.000Z']);
  });

  it('should cross the end of a year', () => {
    const anchor = anchorAt(at('2024-12-20T00:00:00Z'), { startOfDay: true });
    assert.deepEqual(span(anchor, '2025-01-05T00:00:00Z'), ['2024-12-20T00:00:00.000Z', '2025-01-20T00:00:00.000Z']);
  });
});
