import { describe, expect, it } from 'vitest';
import type { OrderRequest } from '../../../src/core/intents.ts';
import { FeeRate } from '../../../src/core/money.ts';
import type { VenueFill } from '../../../src/execution/execution-client.ts';
import { SIZE_LOT } from '../../../src/sim/admission.ts';
import type { TokenVenue } from '../../../src/sim/edge/edge-order.ts';
import { EdgeVenue } from '../../../src/sim/edge/edge-venue.ts';
import { arrive } from '../../../src/sim/edge/order-arrival.ts';
import { RestingFills } from '../../../src/sim/edge/resting-fills.ts';
import { queueModel } from '../../../src/sim/edge/queue-model.ts';
import { bookEvent, COND, m, T0, YES } from '../../backtest/helpers.ts';

/** The edge's parts without its client and clock: the venue state, arrivals and resting fills. */
function parts() {
  const fills: VenueFill[] = [];
  const venue = new EdgeVenue({
    tokens: [{ tokenId: YES, conditionId: COND, tickSize: m('0.01'), minOrderSize: m('5'), fees: { maker: new FeeRate(0), taker: new FeeRate(0) } }],
    balance: m('1000'),
    lot: SIZE_LOT,
    now: () => T0,
    onFill: (f) => fills.push(f),
    tradePrefix: 'bt',
    accountName: 'test',
  });
  const resting = new RestingFills(venue, queueModel('conservative'));
  const token = venue.tokens.get(YES) as TokenVenue;
  const show = (bids: [string, string][], asks: [string, string][]) => {
    const e = bookEvent(T0, bids, asks);
    if (e.type !== 'book') throw new Error('not a book');
    token.book.applySnapshot(e.book);
    resting.onSnapshot(token, T0);
    token.book.clearPrinted();
  };
  let seq = 0;
  const buy = (price: string, size: string) => {
    const id = `o${++seq}`;
    const request: OrderRequest = { kind: 'place', tokenId: YES, conditionId: COND, side: 'BUY', price: m(price), size: m(size), orderType: 'GTC', strategyId: 's', clientOrderId: id, createdAt: T0 };
    const r = arrive(venue, { request, orderId: id, payload: undefined }, T0);
    if (!r.ok) throw new Error(r.errorMsg);
    return id;
  };
  const sell = (price: string, size: string) => resting.onTrade(token, true, m(price), m(size), T0);
  const filled = (id: string) => venue.orders.get(id)?.filled;
  const ahead = (id: string) => venue.orders.get(id)?.queueAhead;
  return { fills, show, buy, sell, filled, ahead };
}

describe('RestingFills: our orders against prints and snapshots', () => {
  it('a print at our price moves the queue of every order of ours there, reached or not', () => {
    const p = parts();
    p.show([['0.50', '100']], [['0.52', '40']]);
    const a = p.buy('0.50', '20');
    p.show([['0.50', '130']], [['0.52', '40']]);
    const b = p.buy('0.50', '20');
    p.sell('0.50', '60');
    expect([p.ahead(a), p.ahead(b)]).toEqual([m('40'), m('70')]);
    // one print reaches both: 40 of queue, A's 20, 30 between A and B, 5 for B
    p.sell('0.50', '95');
    expect([p.filled(a), p.filled(b)]).toEqual([m('20'), m('5')]);
    expect(p.ahead(b)).toBe(0);
  });

  it('a print through a better order of ours fills it first; what it took is not there for the queue behind', () => {
    const p = parts();
    p.show([['0.50', '100']], [['0.52', '40']]);
    const a = p.buy('0.51', '20');
    const b = p.buy('0.50', '20');
    // 130 sold at 0.50: 20 to A at 0.51 on the way, 100 of B's queue, 10 to B
    p.sell('0.50', '130');
    expect([p.filled(a), p.filled(b)]).toEqual([m('20'), m('10')]);
    expect(p.fills.map((f) => [f.orderId, f.price, f.size])).toEqual([
      [a, m('0.51'), m('20')],
      [b, m('0.50'), m('10')],
    ]);
  });

  it('a crossing is shared in turn: what one order took is used up for the next', () => {
    const p = parts();
    p.show([['0.49', '100']], [['0.52', '40']]);
    const a = p.buy('0.50', '20');
    const b = p.buy('0.50', '20');
    // sellers come down to 0.50 with 30: A (first) gets 20, B the other 10
    p.show([['0.49', '100']], [['0.50', '30']]);
    expect([p.filled(a), p.filled(b)]).toEqual([m('20'), m('10')]);
    // the same 30 shown again has been used
    p.show([['0.49', '100']], [['0.50', '30']]);
    expect(p.filled(b)).toBe(m('10'));
  });
});
