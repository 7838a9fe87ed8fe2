import { describe, expect, it } from 'vitest';
import { ParameterError } from '../../../src/core/errors.ts';
import { OrderRegistry } from '../../../src/sim/matching/order-registry.ts';
import { newEngine, order, place, T0 } from '../helpers.ts';

describe('OrderRegistry', () => {
  it('refuses a trade history that is not a positive integer', () => {
    for (const tradeHistory of [0, -1, 1.5, NaN]) {
      expect(() => new OrderRegistry({ keepClosedOrders: true, transientOwner: undefined, tradeHistory })).toThrow(ParameterError);
    }
  });

  it('remembers the ids of closed orders it forgets, so a duplicate is still refused', () => {
    const e = newEngine({}, { keepClosedOrders: false });
    const o = order({ price: '0.5', size: '10' });
    place(e, o, T0);
    e.cancel(o.id, 'alice', T0);
    expect(e.order(o.id)).toBeUndefined();
    expect(e.submit(o, T0)).toMatchObject({ status: 'REJECTED', errorMsg: 'order is invalid. Duplicated.' });
  });

  it('forgets the orders and trades of transient owners, and bounds the unowned trade list', () => {
    const e = newEngine({}, { transientOwner: (owner) => owner === 'agent', tradeHistory: 2 });
    e.split('addr-bob', e.markets()[0]!.conditionId, 100_000_000);
    for (let i = 0; i < 5; i++) {
      place(e, order({ owner: 'bob', side: 'SELL', price: '0.5', size: '5' }), T0);
      const taker = order({ owner: 'agent', price: '0.5', size: '5' });
      place(e, taker, T0);
      expect(e.order(taker.id)).toBeUndefined();
    }
    expect(e.trades({ owner: 'agent' })).toEqual([]);
    expect(e.trades({ owner: 'bob' })).toHaveLength(5);
    const all = e.trades();
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all.length).toBeLessThan(4);
  });
});
