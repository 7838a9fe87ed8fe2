import { describe, expect, it } from 'vitest';
import { EventBatch } from '../../../src/sim/matching/event-batch.ts';
import type { SimEvent } from '../../../src/sim/types.ts';
import { newEngine, order, T0 } from '../helpers.ts';

const expired = (orderId: string): SimEvent => ({ type: 'OrderExpired', ts: T0, orderId, owner: 'alice', canceledSize: 0, sizeMatched: 0 });

describe('EventBatch', () => {
  it('collects only while someone listens, and dispatches when the call ends', () => {
    const batch = new EventBatch((e) => {
      throw e;
    });
    batch.begin();
    expect(batch.listening).toBe(false);
    const seen: SimEvent[] = [];
    const stop = batch.listen((e) => seen.push(e));
    batch.begin();
    expect(batch.listening).toBe(true);
    batch.push(expired('x'));
    expect(seen).toEqual([]);
    batch.end(T0);
    expect(seen.map((e) => e.type)).toEqual(['OrderExpired']);
    stop();
    batch.begin();
    expect(batch.listening).toBe(false);
  });

  it('hands a throwing listener to the error handler and still serves the others', () => {
    const errors: unknown[] = [];
    const batch = new EventBatch((error) => errors.push(error));
    const seen: string[] = [];
    batch.listen(() => {
      throw new Error('boom');
    });
    batch.listen((e) => seen.push(e.type));
    batch.begin();
    batch.push(expired('x'));
    batch.push(expired('y'));
    batch.end(T0);
    expect(seen).toEqual(['OrderExpired', 'OrderExpired']);
    expect(errors).toHaveLength(2);
  });

  it('reports the levels a call changed as one BookChanged per market (through the engine)', () => {
    const e = newEngine();
    const events: SimEvent[] = [];
    e.onEvent((ev) => events.push(ev));
    e.submit(order({ price: '0.5', size: '10' }), T0);
    const changed = events.filter((ev) => ev.type === 'BookChanged');
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ changes: [{ side: 'BUY', size: 10_000_000 }, { side: 'SELL', size: 10_000_000 }] });
  });
});
