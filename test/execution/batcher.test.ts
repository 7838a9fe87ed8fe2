import { describe, expect, it } from 'vitest';
import { TestScheduler } from 'rxjs/testing';
import { batchWithin, Lanes, Outlet } from '../../src/execution/batcher.ts';
import { SimulatedClock } from '../../src/core/clock.ts';
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

describe('Lanes and Outlet', () => {
  it('runs at most `limit` jobs at once, the rest in arrival order as jobs end (also ending inside their start)', () => {
    const started: string[] = [];
    const lanes = new Lanes<string>(2, (job) => {
      started.push(job);
      if (job.startsWith('sync')) lanes.done(); // ends at once: its lane goes to the next job
    });
    for (const job of ['a', 'b', 'c', 'sync-d', 'e']) lanes.add(job);
    expect(started).toEqual(['a', 'b']);
    expect(lanes.active).toBe(2);
    lanes.done(); // a ends: c starts
    expect(started).toEqual(['a', 'b', 'c']);
    lanes.done(); // b ends: sync-d starts and ends at once, so e starts too
    expect(started).toEqual(['a', 'b', 'c', 'sync-d', 'e']);
    expect(lanes.active).toBe(2);
    lanes.clear();
    lanes.add('f');
    expect(started).toHaveLength(5);
  });

  it('batches pushed items on the clock, takes whole batches at once, and takes nothing once closed', () => {
    const clock = new SimulatedClock(0);
    const batches: string[][] = [];
    const out = new Outlet<string>(20, 3, 4, clock.scheduler, (batch) => batches.push([...batch]));
    out.push('x'); // not open yet: dropped
    out.open();
    for (const item of ['a', 'b', 'c', 'd']) out.push(item);
    out.post(['whole']);
    expect(batches).toEqual([['a', 'b', 'c'], ['whole']]);
    clock.advanceBy(19);
    expect(batches).toHaveLength(2);
    clock.advanceBy(1);
    expect(batches).toEqual([['a', 'b', 'c'], ['whole'], ['d']]);
    out.push('e');
    out.complete(); // flushes the waiting batch, then takes no more
    out.push('f');
    expect(batches.slice(3)).toEqual([['e']]);
    const closed = new Outlet<string>(20, 3, 1, clock.scheduler, (batch) => batches.push([...batch]));
    closed.open();
    closed.push('g');
    closed.close(); // drops the waiting batch and its timer
    clock.advanceBy(100);
    expect(batches).toHaveLength(4);
  });

  it('never splits a group (the legs of a basket): it joins the waiting batch when it fits, else the next one', () => {
    const clock = new SimulatedClock(0);
    const batches: string[][] = [];
    const out = new Outlet<string>(20, 4, 4, clock.scheduler, (batch) => batches.push([...batch]));
    out.open();
    out.push('a');
    out.pushGroup(['l1', 'l2']); // fits beside a
    expect(batches).toEqual([]);
    out.pushGroup(['m1', 'm2', 'm3']); // does not fit: a, l1, l2 go first
    expect(batches).toEqual([['a', 'l1', 'l2']]);
    out.push('b'); // fills the batch of m1..m3
    expect(batches).toEqual([['a', 'l1', 'l2'], ['m1', 'm2', 'm3', 'b']]);
    out.pushGroup(['n1', 'n2']);
    clock.advanceBy(20); // the group waits on the clock like any item
    expect(batches.slice(2)).toEqual([['n1', 'n2']]);
    expect(() => out.pushGroup(['1', '2', '3', '4', '5'])).toThrow(/a group of 5 items cannot share a batch of at most 4/);
  });
});

// Inside TestScheduler.run, asyncScheduler is patched to virtual time.
import { asyncScheduler } from 'rxjs';
function testSchedulerOf() {
  return asyncScheduler;
}
