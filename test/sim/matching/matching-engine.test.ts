import { describe, expect, it } from 'vitest';
import { ParameterError } from '../../../src/core/errors.ts';
import { MatchingEngine } from '../../../src/sim/matching/matching-engine.ts';
import type { SimEvent } from '../../../src/sim/types.ts';
import {
  CANCEL_ALREADY_MATCHED,
  CANCEL_NOT_FOUND,
  ERR_BALANCE,
  ERR_DUPLICATED,
  ERR_FAK_NO_MATCH,
  ERR_FOK_UNFILLED,
  ERR_INVALID_PAYLOAD,
  ERR_MARKET_NOT_READY,
  ERR_POST_ONLY_CROSSES,
  ERR_PRICE_TICK,
  ERR_SIZE_MINIMUM,
} from '../../../src/sim/venue-messages.ts';
import { COND, m, marketConfig, NO, newEngine, order, place, T0, YES } from '../helpers.ts';

const START = m('10000');

/** An engine where bob and carol hold 1000 of each token (split from collateral). */
function withSellers(market: Parameters<typeof newEngine>[0] = {}): MatchingEngine {
  const e = newEngine(market);
  e.split('addr-bob', COND, m('1000'));
  e.split('addr-carol', COND, m('1000'));
  return e;
}

describe('validation and venue error strings', () => {
  it('rejects prices off the tick grid or outside [tick, 1 - tick]', () => {
    const e = newEngine();
    for (const price of ['0.505', '0', '1', '0.001', '0.999', '0.995']) {
      const r = e.submit(order({ price }), T0);
      expect(r.status).toBe('REJECTED');
      expect(r.errorMsg).toBe(ERR_PRICE_TICK);
    }
    expect(e.submit(order({ price: '0.01' }), T0).status).toBe('LIVE');
    expect(e.submit(order({ price: '0.99', size: '5' }), T0).status).toBe('LIVE');
  });

  it('rejects a size below the minimum and a size off the 0.01 lot', () => {
    const e = newEngine();
    expect(e.submit(order({ size: '4.99' }), T0).errorMsg).toBe(ERR_SIZE_MINIMUM);
    expect(e.submit(order({ size: '0' }), T0).errorMsg).toBe(ERR_SIZE_MINIMUM);
    expect(e.submit(order({ size: '5.001' }), T0).errorMsg).toBe(ERR_INVALID_PAYLOAD);
    expect(e.submit(order({ size: '5' }), T0).status).toBe('LIVE');
  });

  it('rejects a duplicated id, also after the first order closed, but not after a rejection', () => {
    const e = newEngine();
    const first = order();
    expect(e.submit(first, T0).status).toBe('LIVE');
    expect(e.submit({ ...first }, T0).errorMsg).toBe(ERR_DUPLICATED);
    e.cancel(first.id, 'alice', T0);
    expect(e.submit({ ...first }, T0).errorMsg).toBe(ERR_DUPLICATED);

    const refused = order({ price: '0.505' });
    expect(e.submit(refused, T0).errorMsg).toBe(ERR_PRICE_TICK);
    expect(e.submit({ ...refused, price: m('0.5') }, T0).status).toBe('LIVE');
  });

  it('keeps ids of closed orders for duplicate detection when it forgets the orders', () => {
    const e = newEngine({}, { keepClosedOrders: false });
    const o = order();
    place(e, o, T0);
    e.cancel(o.id, 'alice', T0);
    expect(e.order(o.id)).toBeUndefined();
    expect(e.submit({ ...o }, T0).errorMsg).toBe(ERR_DUPLICATED);
  });

  it('rejects orders on a market that is not accepting orders, and accepts again when reopened', () => {
    const e = newEngine({ acceptingOrders: false });
    expect(e.submit(order(), T0).errorMsg).toBe(ERR_MARKET_NOT_READY);
    e.setAcceptingOrders(COND, true);
    expect(e.submit(order(), T0).status).toBe('LIVE');
  });

  it('rejects an unknown token, post-only FOK/FAK and a GTD without a future expiration as invalid payloads', () => {
    const e = newEngine();
    expect(e.submit(order({ tokenId: '999' }), T0).errorMsg).toBe(ERR_INVALID_PAYLOAD);
    expect(e.submit(order({ type: 'FOK', postOnly: true }), T0).errorMsg).toBe(ERR_INVALID_PAYLOAD);
    expect(e.submit(order({ type: 'FAK', postOnly: true }), T0).errorMsg).toBe(ERR_INVALID_PAYLOAD);
    expect(e.submit(order({ type: 'GTD' }), T0).errorMsg).toBe(ERR_INVALID_PAYLOAD);
    expect(e.submit(order({ type: 'GTD', expiration: T0 }), T0).errorMsg).toBe(ERR_INVALID_PAYLOAD);
    expect(e.submit(order({ type: 'GTD', expiration: T0 + 1 }), T0).status).toBe('LIVE');
  });

  it('refuses bad market configurations with a ParameterError', () => {
    const e = new MatchingEngine();
    expect(() => e.addMarket(marketConfig({ tickSize: 50 }))).toThrow(ParameterError);
    expect(() => e.addMarket(marketConfig({ tokenIds: [YES, YES] }))).toThrow(ParameterError);
    expect(() => e.addMarket(marketConfig({ takerBaseFeeBps: 10_001 }))).toThrow(ParameterError);
    e.addMarket(marketConfig());
    expect(() => e.addMarket(marketConfig())).toThrow(/already listed/);
    expect(() => e.setTickSize('0xnope', m('0.01'), T0)).toThrow(ParameterError);
  });
});

describe('balances', () => {
  it('rejects a BUY that free collateral cannot cover, counting what resting orders reserve', () => {
    const e = newEngine();
    // 10,000 of collateral: 15,000 shares at 0.6 = 9,000 fits, a second 2,000 at 0.6 = 1,200 does not.
    expect(e.submit(order({ price: '0.6', size: '15000' }), T0).status).toBe('LIVE');
    expect(e.ledger.balance('addr-alice').collateral).toBe(m('1000'));
    expect(e.ledger.balance('addr-alice').collateralReserved).toBe(m('9000'));
    expect(e.submit(order({ price: '0.6', size: '2000' }), T0).errorMsg).toBe(ERR_BALANCE);
    expect(e.submit(order({ price: '0.5', size: '2000' }), T0).status).toBe('LIVE');
    expect(e.ledger.balance('addr-alice').collateral).toBe(0);
  });

  it('rejects a SELL of tokens the account does not hold (no shorting)', () => {
    const e = newEngine();
    expect(e.submit(order({ side: 'SELL', price: '0.5' }), T0).errorMsg).toBe(ERR_BALANCE);
    e.split('addr-alice', COND, m('10'));
    expect(e.submit(order({ side: 'SELL', price: '0.5', size: '6' }), T0).status).toBe('LIVE');
    // 4 free YES left: a second SELL of 5 is refused, a SELL of NO is fine.
    expect(e.submit(order({ side: 'SELL', price: '0.5', size: '5' }), T0).errorMsg).toBe(ERR_BALANCE);
    expect(e.submit(order({ side: 'SELL', tokenId: NO, price: '0.6', size: '5' }), T0).status).toBe('LIVE');
  });

  it('includes the largest possible fee in the BUY check', () => {
    const e = newEngine({ takerBaseFeeBps: 200 });
    e.ledger.withdraw('addr-alice', START - m('60'));
    // 100 @ 0.6: notional 60, worst fee 2% × 0.5 × 100 = 1 -> needs 61.
    expect(e.submit(order({ price: '0.6', size: '100' }), T0).errorMsg).toBe(ERR_BALANCE);
    e.ledger.deposit('addr-alice', m('1'));
    expect(e.submit(order({ price: '0.6', size: '100' }), T0).status).toBe('LIVE');
  });

  it('opens accounts on demand with the configured starting collateral', () => {
    const e = new MatchingEngine({ startingCollateral: m('250') });
    e.addMarket(marketConfig());
    expect(e.ledger.balance('addr-new').collateral).toBe(m('250'));
    expect(e.ledger.totals().deposited).toBe(m('250'));
  });
});

describe('matching', () => {
  it('fills at the resting price, best price first across levels', () => {
    const e = withSellers();
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.52', size: '10' }), T0);
    place(e, order({ owner: 'carol', side: 'SELL', price: '0.50', size: '10' }), T0);
    const r = e.submit(order({ price: '0.55', size: '15' }), T0 + 1);
    expect(r.status).toBe('MATCHED');
    expect(r.trades.map((t) => [t.price, t.size, t.makerOrders[0]?.owner])).toEqual([
      [m('0.50'), m('10'), 'carol'],
      [m('0.52'), m('5'), 'bob'],
    ]);
    expect(r.makingAmount).toBe(m('5') + m('2.6'));
    expect(r.takingAmount).toBe(m('15'));
    expect(e.book(YES, T0 + 1).asks).toEqual([{ price: m('0.52'), size: m('5') }]);
  });

  it('fills the older order first at one price (time priority)', () => {
    const e = withSellers();
    const first = order({ owner: 'bob', side: 'SELL', price: '0.5', size: '10' });
    const second = order({ owner: 'carol', side: 'SELL', price: '0.5', size: '10' });
    place(e, first, T0);
    place(e, second, T0);
    const r = e.submit(order({ price: '0.5', size: '12' }), T0);
    expect(r.trades).toHaveLength(1);
    expect(r.trades[0]?.makerOrders.map((f) => [f.orderId, f.matchedAmount])).toEqual([
      [first.id, m('10')],
      [second.id, m('2')],
    ]);
    expect(e.order(first.id)?.status).toBe('MATCHED');
    expect(e.order(second.id)).toMatchObject({ status: 'LIVE', sizeMatched: m('2'), openSize: m('8') });
  });

  it('a partial fill leaves the rest of a taker GTC resting with the right size and reserve', () => {
    const e = withSellers();
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.4', size: '6' }), T0);
    const taker = order({ price: '0.45', size: '10' });
    const r = e.submit(taker, T0);
    expect(r.status).toBe('MATCHED');
    expect(r.makingAmount).toBe(m('2.4'));
    expect(e.order(taker.id)).toMatchObject({ status: 'LIVE', sizeMatched: m('6'), openSize: m('4'), originalSize: m('10') });
    expect(e.book(YES, T0)).toMatchObject({ bids: [{ price: m('0.45'), size: m('4') }], asks: [] });
    const alice = e.ledger.balance('addr-alice');
    expect(alice.collateralReserved).toBe(m('1.8'));
    expect(alice.collateral).toBe(START - m('2.4') - m('1.8'));
    expect(e.ledger.position('addr-alice', YES)).toBe(m('6'));
  });

  it('lets an order fill against the same owner (self-trade allowed)', () => {
    const e = withSellers();
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.5', size: '10' }), T0);
    const r = e.submit(order({ owner: 'bob', price: '0.5', size: '10' }), T0);
    expect(r.status).toBe('MATCHED');
    expect(e.ledger.balance('addr-bob').collateral).toBe(START - m('1000'));
    expect(e.ledger.position('addr-bob', YES)).toBe(m('1000'));
  });
});

describe('FOK and FAK', () => {
  it('FOK never fills partially: rejected with nothing changed when the book is short', () => {
    const e = withSellers();
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.5', size: '10' }), T0);
    place(e, order({ owner: 'carol', side: 'SELL', price: '0.6', size: '10' }), T0);
    const before = e.book(YES, T0);
    const balance = e.ledger.balance('addr-alice');
    // 20 available in total but only 10 at or below 0.55.
    const r = e.submit(order({ type: 'FOK', price: '0.55', size: '15' }), T0);
    expect(r).toMatchObject({ status: 'REJECTED', errorMsg: ERR_FOK_UNFILLED, makingAmount: 0, takingAmount: 0, trades: [] });
    expect(e.book(YES, T0)).toEqual(before);
    expect(e.ledger.balance('addr-alice')).toEqual(balance);
    expect(e.order(r.orderId)).toBeUndefined();
  });

  it('FOK fills completely across levels when it can', () => {
    const e = withSellers();
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.5', size: '10' }), T0);
    place(e, order({ owner: 'carol', side: 'SELL', price: '0.6', size: '10' }), T0);
    const r = e.submit(order({ type: 'FOK', price: '0.6', size: '15' }), T0);
    expect(r.status).toBe('MATCHED');
    expect(r.takingAmount).toBe(m('15'));
    expect(e.order(r.orderId)).toMatchObject({ status: 'MATCHED', sizeMatched: m('15'), openSize: 0 });
  });

  it('FOK and FAK with nothing to match are rejected with their own strings', () => {
    const e = withSellers();
    expect(e.submit(order({ type: 'FOK' }), T0).errorMsg).toBe(ERR_FOK_UNFILLED);
    expect(e.submit(order({ type: 'FAK' }), T0).errorMsg).toBe(ERR_FAK_NO_MATCH);
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.7', size: '10' }), T0);
    // A book that does not cross is the same as an empty one.
    expect(e.submit(order({ type: 'FOK', price: '0.6' }), T0).errorMsg).toBe(ERR_FOK_UNFILLED);
    expect(e.submit(order({ type: 'FAK', price: '0.6' }), T0).errorMsg).toBe(ERR_FAK_NO_MATCH);
  });

  it('FAK fills what is there and cancels the rest', () => {
    const e = withSellers();
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.5', size: '7' }), T0);
    const events: SimEvent[] = [];
    e.onEvent((ev) => events.push(ev));
    const fak = order({ type: 'FAK', price: '0.55', size: '10' });
    const r = e.submit(fak, T0);
    expect(r).toMatchObject({ status: 'MATCHED', makingAmount: m('3.5'), takingAmount: m('7') });
    expect(e.order(fak.id)).toMatchObject({ status: 'CANCELED', cancelReason: 'UNFILLED_REMAINDER', sizeMatched: m('7'), openSize: 0 });
    expect(e.book(YES, T0).bids).toEqual([]);
    expect(e.openOrders({ owner: 'alice' })).toEqual([]);
    expect(e.ledger.balance('addr-alice').collateralReserved).toBe(0);
    expect(events.find((ev) => ev.type === 'OrderCanceled')).toMatchObject({ orderId: fak.id, canceledSize: m('3'), reason: 'UNFILLED_REMAINDER' });
  });
});

describe('post-only', () => {
  it('rejects a crossing post-only order and rests a non-crossing one', () => {
    const e = withSellers();
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.5', size: '10' }), T0);
    expect(e.submit(order({ postOnly: true, price: '0.5' }), T0).errorMsg).toBe(ERR_POST_ONLY_CROSSES);
    expect(e.submit(order({ postOnly: true, price: '0.6' }), T0).errorMsg).toBe(ERR_POST_ONLY_CROSSES);
    // BUY NO @ 0.5 is a YES ask at 0.5: it does not cross the YES ask.
    expect(e.submit(order({ postOnly: true, tokenId: NO, price: '0.5' }), T0).status).toBe('LIVE');
    // SELL NO @ 0.5 is a YES bid at 0.5: it crosses the YES ask at 0.5.
    expect(e.submit(order({ owner: 'carol', postOnly: true, tokenId: NO, side: 'SELL', price: '0.5' }), T0).errorMsg).toBe(
      ERR_POST_ONLY_CROSSES,
    );
    const rest = order({ postOnly: true, price: '0.49' });
    expect(e.submit(rest, T0)).toMatchObject({ status: 'LIVE', trades: [] });
    expect(e.order(rest.id)).toMatchObject({ status: 'LIVE', postOnly: true, openSize: m('10') });
  });
});

describe('GTD expiry', () => {
  it('rests until its expiration, then leaves the book and frees its reserve', () => {
    const e = newEngine();
    const gtd = order({ type: 'GTD', price: '0.4', expiration: T0 + 60_000 });
    expect(e.submit(gtd, T0).status).toBe('LIVE');
    expect(e.ledger.balance('addr-alice').collateralReserved).toBe(m('4'));
    expect(e.expire(T0 + 59_999)).toEqual([]);
    expect(e.order(gtd.id)?.status).toBe('LIVE');
    expect(e.expire(T0 + 60_000)).toEqual([gtd.id]);
    expect(e.order(gtd.id)).toMatchObject({ status: 'CANCELED', cancelReason: 'EXPIRED' });
    expect(e.ledger.balance('addr-alice')).toMatchObject({ collateral: START, collateralReserved: 0 });
    expect(e.book(YES, T0 + 60_000).bids).toEqual([]);
  });

  it('expires lazily on the next call that brings a later time: an expired order never fills', () => {
    const e = withSellers();
    const gtd = order({ owner: 'bob', side: 'SELL', type: 'GTD', price: '0.5', expiration: T0 + 1000 });
    const gtc = order({ owner: 'carol', side: 'SELL', price: '0.6' });
    place(e, gtd, T0);
    place(e, gtc, T0);
    const events: SimEvent[] = [];
    e.onEvent((ev) => events.push(ev));
    const r = e.submit(order({ price: '0.6', size: '10' }), T0 + 1500);
    expect(r.trades.map((t) => t.makerOrders[0]?.orderId)).toEqual([gtc.id]);
    expect(events[0]).toMatchObject({ type: 'OrderExpired', orderId: gtd.id, canceledSize: m('10'), ts: T0 + 1000 });
    expect(e.ledger.balance('addr-bob').tokens.find((t) => t.tokenId === YES)).toEqual({ tokenId: YES, balance: m('1000'), reserved: 0 });
  });

  it('a cancel at or after expiration finds the order already gone', () => {
    const e = newEngine();
    const gtd = order({ type: 'GTD', expiration: T0 + 10 });
    place(e, gtd, T0);
    expect(e.cancel(gtd.id, 'alice', T0 + 10)).toEqual({ canceled: [], notCanceled: { [gtd.id]: CANCEL_NOT_FOUND } });
  });
});

describe('cancels', () => {
  it('cancel: only the owner, only once, not after a full match', () => {
    const e = withSellers();
    const o = order({ price: '0.4' });
    place(e, o, T0);
    expect(e.cancel(o.id, 'mallory', T0)).toEqual({ canceled: [], notCanceled: { [o.id]: CANCEL_NOT_FOUND } });
    expect(e.cancel(o.id, 'alice', T0)).toEqual({ canceled: [o.id], notCanceled: {} });
    expect(e.cancel(o.id, 'alice', T0)).toEqual({ canceled: [], notCanceled: { [o.id]: CANCEL_NOT_FOUND } });
    expect(e.cancel('0xunknown', 'alice', T0).notCanceled).toEqual({ '0xunknown': CANCEL_NOT_FOUND });
    expect(e.order(o.id)).toMatchObject({ status: 'CANCELED', cancelReason: 'USER', openSize: 0 });
    expect(e.ledger.balance('addr-alice')).toMatchObject({ collateral: START, collateralReserved: 0 });

    const sell = order({ owner: 'bob', side: 'SELL', price: '0.5' });
    place(e, sell, T0);
    place(e, order({ price: '0.5' }), T0);
    expect(e.cancel(sell.id, 'bob', T0).notCanceled).toEqual({ [sell.id]: CANCEL_ALREADY_MATCHED });
  });

  it('cancelAll and cancelMarket remove exactly the chosen open orders', () => {
    const e = new MatchingEngine();
    e.addMarket(marketConfig());
    const cond2 = '0x' + 'c2'.repeat(32);
    e.addMarket(marketConfig({ conditionId: cond2, tokenIds: ['3333', '4444'] }));
    const a1 = order({ price: '0.3' });
    const a2 = order({ tokenId: NO, price: '0.3' });
    const a3 = order({ tokenId: '3333', price: '0.3' });
    const a4 = order({ tokenId: '4444', price: '0.3' });
    const b1 = order({ owner: 'bob', price: '0.3' });
    for (const o of [a1, a2, a3, a4, b1]) expect(e.submit(o, T0).status).toBe('LIVE');

    expect(e.cancelMarket('alice', { tokenId: NO }, T0).canceled).toEqual([a2.id]);
    expect(e.cancelMarket('alice', { conditionId: cond2 }, T0).canceled).toEqual([a3.id, a4.id]);
    expect(e.cancelMarket('alice', { conditionId: cond2 }, T0).canceled).toEqual([]);
    expect(e.openOrders({ owner: 'alice' }).map((o) => o.id)).toEqual([a1.id]);
    expect(e.cancelAll('alice', T0)).toEqual({ canceled: [a1.id], notCanceled: {} });
    expect(e.openOrders().map((o) => o.id)).toEqual([b1.id]);
    expect(e.ledger.balance('addr-alice')).toMatchObject({ collateral: START, collateralReserved: 0 });
  });
});

describe('complementary tokens', () => {
  it('BUY YES against BUY NO mints: each pays its price, each gets its token', () => {
    const e = newEngine();
    place(e, order({ owner: 'bob', tokenId: NO, price: '0.4', size: '10' }), T0);
    const r = e.submit(order({ price: '0.6', size: '10' }), T0);
    expect(r.trades[0]).toMatchObject({ price: m('0.6'), size: m('10'), tokenId: YES, side: 'BUY' });
    expect(r.trades[0]?.makerOrders[0]).toMatchObject({ tokenId: NO, side: 'BUY', price: m('0.4'), settlement: 'MINT' });
    expect(e.ledger.balance('addr-alice').collateral).toBe(START - m('6'));
    expect(e.ledger.balance('addr-bob').collateral).toBe(START - m('4'));
    expect(e.ledger.position('addr-alice', YES)).toBe(m('10'));
    expect(e.ledger.position('addr-bob', NO)).toBe(m('10'));
    expect(e.ledger.completeSets(COND)).toBe(m('10'));
  });

  it('SELL YES against SELL NO merges: each gives its token and receives its price', () => {
    const e = withSellers();
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.55', size: '10' }), T0);
    // SELL NO @ 0.45 is a YES bid at 0.55: it meets the YES ask at 0.55.
    const r = e.submit(order({ owner: 'carol', tokenId: NO, side: 'SELL', price: '0.45', size: '10' }), T0);
    expect(r.trades[0]).toMatchObject({ price: m('0.45'), tokenId: NO, side: 'SELL' });
    expect(r.trades[0]?.makerOrders[0]).toMatchObject({ settlement: 'MERGE', price: m('0.55') });
    expect(e.ledger.balance('addr-bob').collateral).toBe(START - m('1000') + m('5.5'));
    expect(e.ledger.balance('addr-carol').collateral).toBe(START - m('1000') + m('4.5'));
    expect(e.ledger.completeSets(COND)).toBe(m('2000') - m('10'));
  });

  it('SELL NO against BUY NO transfers NO at the NO price', () => {
    const e = withSellers();
    place(e, order({ tokenId: NO, price: '0.3', size: '10' }), T0);
    const r = e.submit(order({ owner: 'bob', tokenId: NO, side: 'SELL', price: '0.3', size: '10' }), T0);
    expect(r.trades[0]).toMatchObject({ price: m('0.3'), size: m('10') });
    expect(r.trades[0]?.makerOrders[0]?.settlement).toBe('TRANSFER');
    expect(e.ledger.position('addr-alice', NO)).toBe(m('10'));
    expect(e.ledger.balance('addr-alice').collateral).toBe(START - m('3'));
  });

  it('the NO book is the YES book mirrored', () => {
    const e = withSellers();
    place(e, order({ price: '0.40', size: '10' }), T0); // YES bid 0.40
    place(e, order({ tokenId: NO, price: '0.35', size: '7' }), T0); // YES ask 0.65
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.70', size: '5' }), T0); // YES ask 0.70
    place(e, order({ owner: 'carol', tokenId: NO, side: 'SELL', price: '0.62', size: '8' }), T0); // YES bid 0.38
    place(e, order({ owner: 'carol', tokenId: NO, side: 'SELL', price: '0.60', size: '5' }), T0); // YES bid 0.40
    const yes = e.book(YES, T0);
    const no = e.book(NO, T0);
    expect(yes.bids).toEqual([
      { price: m('0.40'), size: m('15') },
      { price: m('0.38'), size: m('8') },
    ]);
    expect(yes.asks).toEqual([
      { price: m('0.65'), size: m('7') },
      { price: m('0.70'), size: m('5') },
    ]);
    const mirror = (levels: typeof yes.bids) => levels.map((l) => ({ price: m('1') - l.price, size: l.size }));
    expect(no.bids).toEqual(mirror(yes.asks));
    expect(no.asks).toEqual(mirror(yes.bids));
    expect(e.quote(NO)).toMatchObject({ bestBid: m('0.35'), bestAsk: m('0.60') });
    expect(e.quote(YES)).toMatchObject({ bestBid: m('0.40'), bestAsk: m('0.65') });
    expect(no.hash).not.toBe(yes.hash);
  });

  it('reports the last trade price in each token’s terms', () => {
    const e = withSellers();
    expect(e.book(YES, T0).lastTradePrice).toBeUndefined();
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.58' }), T0);
    place(e, order({ price: '0.6' }), T0);
    expect(e.book(YES, T0).lastTradePrice).toBe(m('0.58'));
    expect(e.book(NO, T0).lastTradePrice).toBe(m('0.42'));
  });
});

describe('fees', () => {
  it('charges rate × min(p, 1 - p) × size, rounded down, to taker and maker', () => {
    const e = withSellers({ takerBaseFeeBps: 200, makerBaseFeeBps: 30 });
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.7', size: '33.33' }), T0);
    const r = e.submit(order({ price: '0.7', size: '33.33' }), T0);
    const t = r.trades[0];
    // Taker: 0.02 × 0.3 × 33.33 = 0.19998. Maker: 0.003 × 0.3 × 33.33 = 0.029997.
    expect(t?.fee).toBe(m('0.19998'));
    expect(t?.makerOrders[0]?.fee).toBe(m('0.029997'));
    expect(e.ledger.balance('addr-alice').collateral).toBe(START - m('23.331') - m('0.19998'));
    expect(e.ledger.balance('addr-bob').collateral).toBe(START - m('1000') + m('23.331') - m('0.029997'));
    expect(e.ledger.totals().feesCollected).toBe(m('0.229977'));
  });

  it('rounds a fee down to the micro', () => {
    const e = withSellers({ takerBaseFeeBps: 7 });
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.33', size: '5.01' }), T0);
    const r = e.submit(order({ type: 'FOK', price: '0.33', size: '5.01' }), T0);
    // 0.0007 × 0.33 × 5.01 = 0.001157310 -> 0.001157
    expect(r.trades[0]?.fee).toBe(m('0.001157'));
  });

  it('a resting BUY pays its maker fee out of its reserve', () => {
    const e = withSellers({ makerBaseFeeBps: 100 });
    place(e, order({ price: '0.2', size: '100' }), T0);
    // Reserve: notional 20 + 1% × 0.2 × 100 = 0.2.
    expect(e.ledger.balance('addr-alice').collateralReserved).toBe(m('20.2'));
    place(e, order({ owner: 'bob', side: 'SELL', type: 'FAK', price: '0.2', size: '40' }), T0);
    expect(e.ledger.balance('addr-alice')).toMatchObject({ collateralReserved: m('12.12'), collateral: START - m('20.2') });
    expect(e.cancelAll('alice', T0).canceled).toHaveLength(1);
    expect(e.ledger.balance('addr-alice').collateral).toBe(START - m('8') - m('0.08'));
  });
});

describe('book hash and events', () => {
  it('changes iff the book content changes', () => {
    const e = withSellers();
    const h0 = e.book(YES, T0).hash;
    const o = order({ price: '0.4' });
    place(e, o, T0);
    const h1 = e.book(YES, T0).hash;
    expect(h1).not.toBe(h0);
    // A rejected order and a query leave it alone.
    expect(e.submit(order({ price: '0.405' }), T0).status).toBe('REJECTED');
    expect(e.book(YES, T0).hash).toBe(h1);
    // Same aggregate content, reached another way: same hash.
    e.cancel(o.id, 'alice', T0);
    expect(e.book(YES, T0).hash).toBe(h0);
    const a = order({ price: '0.4', size: '5' });
    const b = order({ price: '0.4', size: '5' });
    place(e, a, T0);
    place(e, b, T0);
    expect(e.book(YES, T0).hash).toBe(h1);
    // Size change at a level changes it.
    e.cancel(b.id, 'alice', T0);
    expect(e.book(YES, T0).hash).not.toBe(h1);
    // Tick size is part of the content.
    const before = e.book(YES, T0).hash;
    e.setTickSize(COND, m('0.001'), T0);
    expect(e.book(YES, T0).hash).not.toBe(before);
  });

  it('streams accepted, trade, fill and book events with hashes that match the book', () => {
    const e = withSellers();
    const events: SimEvent[] = [];
    e.onEvent((ev) => events.push(ev));
    const maker = order({ owner: 'bob', side: 'SELL', price: '0.5', size: '10' });
    place(e, maker, T0);
    expect(events.map((ev) => ev.type)).toEqual(['OrderAccepted', 'BookChanged']);
    events.length = 0;
    const taker = order({ price: '0.5', size: '5' });
    place(e, taker, T0 + 5);
    expect(events.map((ev) => ev.type)).toEqual(['TradeExecuted', 'OrderFilled', 'OrderFilled', 'BookChanged']);
    expect(events[1]).toMatchObject({ role: 'MAKER', orderId: maker.id, size: m('5'), sizeMatched: m('5'), status: 'LIVE' });
    expect(events[2]).toMatchObject({ role: 'TAKER', orderId: taker.id, size: m('5'), status: 'MATCHED', ts: T0 + 5 });
    const changed = events[3];
    if (changed?.type !== 'BookChanged') throw new Error('expected BookChanged');
    expect(changed.changes).toEqual([
      { tokenId: YES, side: 'SELL', price: m('0.5'), size: m('5') },
      { tokenId: NO, side: 'BUY', price: m('0.5'), size: m('5') },
    ]);
    expect(changed.tops[0]).toEqual({ tokenId: YES, hash: e.book(YES, T0 + 5).hash, bestBid: undefined, bestAsk: m('0.5') });
    expect(changed.tops[1].hash).toBe(e.book(NO, T0 + 5).hash);
    expect(changed.lastTradePrices).toEqual([m('0.5'), m('0.5')]);
  });

  it('reports a level emptied by a sweep with size 0', () => {
    const e = withSellers();
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.5', size: '5' }), T0);
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.51', size: '5' }), T0);
    const events: SimEvent[] = [];
    e.onEvent((ev) => events.push(ev));
    place(e, order({ price: '0.52', size: '12' }), T0);
    const changed = events.find((ev) => ev.type === 'BookChanged');
    if (changed?.type !== 'BookChanged') throw new Error('expected BookChanged');
    expect(changed.changes.filter((c) => c.tokenId === YES)).toEqual([
      { tokenId: YES, side: 'SELL', price: m('0.5'), size: 0 },
      { tokenId: YES, side: 'SELL', price: m('0.51'), size: 0 },
      { tokenId: YES, side: 'BUY', price: m('0.52'), size: m('2') },
    ]);
  });

  it('reports one final change for a level emptied and recreated in the same call', () => {
    const e = newEngine();
    place(e, order({ type: 'GTD', price: '0.5', size: '5', expiration: T0 + 10 }), T0);
    const events: SimEvent[] = [];
    e.onEvent((ev) => events.push(ev));
    // The GTD bid at 0.5 expires at the start of this call, then a new bid rests at 0.5.
    place(e, order({ owner: 'bob', price: '0.5', size: '7' }), T0 + 10);
    expect(events.map((ev) => ev.type)).toEqual(['OrderExpired', 'OrderAccepted', 'BookChanged']);
    const changed = events[2];
    if (changed?.type !== 'BookChanged') throw new Error('expected BookChanged');
    expect(changed.changes).toEqual([
      { tokenId: YES, side: 'BUY', price: m('0.5'), size: m('7') },
      { tokenId: NO, side: 'SELL', price: m('0.5'), size: m('7') },
    ]);
  });

  it('a throwing listener does not take the result away nor stop other listeners', () => {
    const errors: unknown[] = [];
    const e = new MatchingEngine({ onListenerError: (err) => errors.push(err) });
    e.addMarket(marketConfig());
    let seen = 0;
    e.onEvent(() => {
      throw new Error('listener bug');
    });
    const off = e.onEvent(() => seen++);
    expect(e.submit(order(), T0).status).toBe('LIVE');
    expect(seen).toBe(2);
    expect(errors).toHaveLength(2);
    off();
    place(e, order(), T0);
    expect(seen).toBe(2);
  });
});

describe('tick size change', () => {
  it('keeps resting orders and checks new orders against the new tick', () => {
    const e = withSellers();
    const old = order({ price: '0.42' });
    place(e, old, T0);
    e.setTickSize(COND, m('0.1'), T0);
    expect(e.submit(order({ price: '0.45' }), T0).errorMsg).toBe(ERR_PRICE_TICK);
    expect(e.order(old.id)?.status).toBe('LIVE');
    const r = e.submit(order({ owner: 'bob', side: 'SELL', price: '0.4', size: '10' }), T0);
    expect(r.trades[0]).toMatchObject({ price: m('0.42') });
    e.setTickSize(COND, m('0.001'), T0);
    expect(e.submit(order({ price: '0.451' }), T0).status).toBe('LIVE');
    expect(e.market(COND)?.tickSize).toBe(m('0.001'));
  });
});

describe('order and trade queries', () => {
  it('records trades for taker and makers, and the trade ids on each order', () => {
    const e = withSellers();
    const s1 = order({ owner: 'bob', side: 'SELL', price: '0.5', size: '5', clientMetadata: 'q-1' });
    const s2 = order({ owner: 'carol', tokenId: NO, price: '0.49', size: '5' }); // YES ask 0.51
    place(e, s1, T0);
    place(e, s2, T0);
    const taker = order({ price: '0.51', size: '10' });
    const r = e.submit(taker, T0 + 7);
    const ids = r.trades.map((t) => t.id);
    expect(new Set(ids).size).toBe(2);
    expect(e.order(taker.id)?.associateTrades).toEqual(ids);
    expect(e.order(s1.id)).toMatchObject({ associateTrades: [ids[0]], clientMetadata: 'q-1', outcomeIndex: 0 });
    expect(e.order(s2.id)).toMatchObject({ associateTrades: [ids[1]], outcomeIndex: 1, tokenId: NO });
    expect(e.trades({ owner: 'carol' }).map((t) => t.id)).toEqual([ids[1]]);
    expect(e.trades({ owner: 'alice' }).map((t) => t.id)).toEqual(ids);
    expect(e.trades({ tokenId: NO }).map((t) => t.id)).toEqual([ids[1]]);
    expect(r.trades[1]).toMatchObject({
      takerOrderId: taker.id,
      owner: 'alice',
      address: 'addr-alice',
      side: 'BUY',
      matchTime: T0 + 7,
      status: 'MATCHED',
      makerOrders: [{ orderId: s2.id, owner: 'carol', address: 'addr-carol', side: 'BUY', price: m('0.49'), matchedAmount: m('5'), feeRateBps: 0 }],
    });
  });

  it('lists open orders by owner, market and token, oldest first', () => {
    const e = withSellers();
    const a = order({ price: '0.3' });
    const b = order({ owner: 'bob', side: 'SELL', price: '0.7' });
    const c = order({ tokenId: NO, price: '0.2' });
    for (const o of [a, b, c]) place(e, o, T0);
    expect(e.openOrders().map((o) => o.id)).toEqual([a.id, b.id, c.id]);
    expect(e.openOrders({ tokenId: YES }).map((o) => o.id)).toEqual([a.id, b.id]);
    expect(e.openOrders({ owner: 'alice', conditionId: COND }).map((o) => o.id)).toEqual([a.id, c.id]);
    expect(e.openOrders({ conditionId: '0xother' })).toEqual([]);
  });
});

describe('bounded history (the sandbox with synthetic flow)', () => {
  it('forgets closed orders of transient owners and lists no trades for them; others keep everything', () => {
    const e = newEngine({}, { transientOwner: (owner) => owner.startsWith('flow-') });
    e.split('addr-flow-1', COND, m('1000'));
    const resting = order({ owner: 'flow-1', side: 'SELL', price: '0.5', size: '20' });
    place(e, resting, T0);
    const buy = order({ owner: 'alice', price: '0.5', size: '20' });
    expect(e.submit(buy, T0).status).toBe('MATCHED');
    expect(e.order(resting.id)).toBeUndefined(); // filled and closed: gone
    expect(e.order(buy.id)?.status).toBe('MATCHED'); // the client's own order stays
    expect(e.trades({ owner: 'alice' })).toHaveLength(1);
    expect(e.trades({ owner: 'flow-1' })).toEqual([]);
    expect(e.trades()).toHaveLength(1);
  });

  it('keeps at least the newest tradeHistory trades in the all-owners list, oldest first', () => {
    const e = newEngine({}, { tradeHistory: 3 });
    e.split('addr-bob', COND, m('1000'));
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      place(e, order({ owner: 'bob', side: 'SELL', price: '0.5', size: '5' }), T0 + i);
      const r = e.submit(order({ owner: 'alice', price: '0.5', size: '5' }), T0 + i);
      ids.push(r.trades[0]!.id);
    }
    const kept = e.trades().map((t) => t.id);
    expect(kept.length).toBeGreaterThanOrEqual(3);
    expect(kept.length).toBeLessThan(6);
    expect(kept).toEqual(ids.slice(ids.length - kept.length));
    expect(e.trades({ owner: 'alice' })).toHaveLength(10); // by owner: in full
    expect(() => newEngine({}, { tradeHistory: 0 })).toThrow(ParameterError);
  });
});
