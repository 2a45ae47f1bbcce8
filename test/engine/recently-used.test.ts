/**
 * The bounded map behind the preview's caches (laid-out blocks, pages' ink): entries weigh
 * together at most its capacity, the least recently used go first, and an entry heavier than
 * the whole capacity is never kept.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecentlyUsed } from '#engine/recently-used.js';

describe('RecentlyUsed', () => {
  it('should drop the least recently used entries once their weight passes the capacity', () => {
    const map = new RecentlyUsed<string, string>(10, (value) => value.length);
    map.set('a', 'aaaa');
    map.set('b', 'bbbb');
    assert.equal(map.get('a'), 'aaaa', 'reading a makes it the newest');
    map.set('c', 'cccc');
    assert.equal(map.size, 8);
    assert.equal(map.get('b'), undefined, 'b, the least recently used, went first');
    assert.equal(map.get('a'), 'aaaa');
    assert.equal(map.get('c'), 'cccc');
  });

  it('should weigh a replaced entry once, and never keep one heavier than the capacity', () => {
    const map = new RecentlyUsed<string, string>(10, (value) => value.length);
    map.set('a', 'aaaaaaaa');
    map.set('a', 'aa');
    assert.equal(map.size, 2);
    map.set('huge', 'x'.repeat(11));
    assert.equal(map.get('huge'), undefined);
    assert.equal(map.get('a'), 'aa', 'an entry too heavy to keep drops nothing else');
    assert.equal(map.size, 2);
  });
});
