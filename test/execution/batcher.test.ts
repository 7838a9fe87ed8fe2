import { describe, expect, it } from 'vitest';
import { TestScheduler } from 'rxjs/testing';
import { batchWithin } from '../../src/execution/batcher.ts';
import { MAX_ORDERS_PER_BATCH } from '../../src/venue/endpoints.ts';

function scheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe('batchWithin (marble, virtual time)', () => {
  it('emits after maxWaitMs counted from the first item of a batch, never while idle', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('a 9ms b 30ms c 60ms |');
      // a at 0 starts a 20 ms timer -> [a,b] at 20; c at 41 -> [c] at 61; completion at 102
      expectObservable(source.pipe(batchWithin(20, 15, testSchedulerOf()))).toBe('20ms x 40ms y 40ms |', {
        x: ['a', 'b'],
        y: ['c'],
      });
    });
  });

  it('emits at once when the batch is full, and the rest waits for its own timer', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('(abcd) 50ms |');
      expectObservable(source.pipe(batchWithin(10, 3, testSchedulerOf()))).toBe('x 9ms y 45ms |', {
        x: ['a', 'b', 'c'],
        y: ['d'],
      });
    });
  });

  it('flushes a partial batch on completion and propagates errors', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('a|').pipe(batchWithin(100, 15, testSchedulerOf()))).toBe('-(x|)', { x: ['a'] });
      expectObservable(cold('a#').pipe(batchWithin(100, 15, testSchedulerOf()))).toBe('-#');
    });
  });

  it('caps batches at the venue limit of 15', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const letters = 'abcdefghijklmnopq'; // 17 items in one frame
      const source = cold(`(${letters})`);
      expectObservable(source.pipe(batchWithin(5, MAX_ORDERS_PER_BATCH, testSchedulerOf()))).toBe('x 4ms y', {
        x: letters.slice(0, 15).split(''),
        y: letters.slice(15).split(''),
      });
    });
  });

  it('refuses a non-positive size', () => {
    expect(() => batchWithin(1, 0, testSchedulerOf())).toThrow(RangeError);
  });
});

// Inside TestScheduler.run, asyncScheduler is patched to virtual time.
import { asyncScheduler } from 'rxjs';
function testSchedulerOf() {
  return asyncScheduler;
}
