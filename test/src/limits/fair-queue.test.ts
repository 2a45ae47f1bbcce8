/** The order in which accounts share a resource: turns, running bounds and what a full queue sheds. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FairQueue } from '../../../src/limits/fair-queue.js';

/** Items are named `<account><n>`: `a1` is account a's first. */
const queueOf = (runningPerAccount?: number) => new FairQueue<string>((item) => item[0]!, runningPerAccount);

function pushAll(queue: FairQueue<string>, ...items: string[]): void {
  for (const item of items) queue.push(item);
}

describe('the fair queue', () => {
  it('should serve accounts in turn, first in first out within each', () => {
    const queue = queueOf();
    pushAll(queue, 'a1', 'a2', 'a3', 'b1', 'b2', 'c1');
    const order: string[] = [];
    for (let item = queue.take(); item !== undefined; item = queue.take()) {
      order.push(item);
      queue.finished(item);
    }
    assert.deepEqual(order, ['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    assert.equal(queue.length, 0);
  });

  it('should give an account arriving behind a flood the next free place', () => {
    const queue = queueOf();
    pushAll(queue, 'f1', 'f2', 'f3', 'f4', 'f5');
    const running = [queue.take()!, queue.take()!];
    queue.push('v1');
    queue.finished(running[0]!);
    assert.equal(queue.take(), 'v1');
    assert.equal(queue.take(), 'f3');
  });

  it('should serve an account new to the queue before accounts just served, when as many of each run', () => {
    // Two places, both taken by two flooding accounts; a third arrives after both were served.
    const queue = queueOf();
    pushAll(queue, 'a1', 'a2', 'b1', 'b2');
    const [a1, b1] = [queue.take()!, queue.take()!];
    assert.deepEqual([a1, b1], ['a1', 'b1']);
    queue.push('c1');
    queue.finished(a1);
    assert.equal(queue.take(), 'c1');
    queue.finished(b1);
    assert.equal(queue.take(), 'a2');
  });

  it('should hold an account to its running bound and give the free places to the others', () => {
    const queue = queueOf(1);
    pushAll(queue, 'a1', 'a2', 'b1');
    assert.equal(queue.take(), 'a1');
    assert.equal(queue.take(), 'b1');
    assert.equal(queue.take(), undefined, 'a2 waits for a1 though nothing else does');
    assert.equal(queue.length, 1);
    queue.finished('a1');
    assert.equal(queue.take(), 'a2');
  });

  it('should shed the newest item of the account waiting most, and the newcomer when its own account waits as much', () => {
    const queue = queueOf();
    pushAll(queue, 'f1', 'f2', 'f3', 'f4');
    queue.push('v1');
    assert.equal(queue.shed('v1'), 'f4');
    queue.push('v2');
    assert.equal(queue.shed('v2'), 'f3');
    queue.push('v3');
    assert.equal(queue.shed('v3'), 'v3', 'v waits as much as f now');
    queue.push('f5');
    assert.equal(queue.shed('f5'), 'f5');
    assert.equal(queue.length, 4);
    assert.deepEqual(queue.drain().sort(), ['f1', 'f2', 'v1', 'v2']);
    assert.equal(queue.length, 0);
    assert.equal(queue.take(), undefined);
  });
});
