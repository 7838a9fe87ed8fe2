import { describe, expect, it } from 'vitest';
import type { SettlementKnobs } from '../../../src/sim/settlement-model.ts';
import type { SimEvent } from '../../../src/sim/types.ts';
import { COND, m, newEngine, NO, order, place, T0, YES } from '../helpers.ts';

const FAIL_ALL: SettlementKnobs = { minedMs: 1_000, confirmedMs: 1_000, retryRate: 0, failRate: 1 };
const CONFIRM_ALL: SettlementKnobs = { minedMs: 1_000, confirmedMs: 1_000, retryRate: 0, failRate: 0 };

function conserved(e: ReturnType<typeof newEngine>): void {
  const t = e.ledger.totals();
  const sets = Object.values(t.completeSets).reduce((s, v) => s + v, 0);
  expect(t.collateral + t.collateralReserved + t.feesCollected + sets).toBe(t.deposited);
  expect(t.tokenSupply[YES] ?? 0).toBe(t.completeSets[COND] ?? 0);
  expect(t.tokenSupply[NO] ?? 0).toBe(t.completeSets[COND] ?? 0);
}

describe('matching engine: trade settlement', () => {
  it('moves a trade MATCHED -> MINED -> CONFIRMED on the engine calls after each step is due', () => {
    let knobs = CONFIRM_ALL;
    const e = newEngine({}, { settlement: { knobs: () => knobs, seed: 1 } });
    e.split('addr-bob', COND, m('100'));
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.6', size: '10' }), T0);
    const r = place(e, order({ owner: 'alice', side: 'BUY', price: '0.6', size: '10' }), T0);
    const trade = r.trades[0]!;
    expect(e.tradeStatus(trade)).toBe('MATCHED');
    e.expire(T0 + 1_600);
    expect(e.tradeStatus(trade)).toBe('MINED');
    e.expire(T0 + 10_000);
    expect(e.tradeStatus(trade)).toBe('CONFIRMED');
    expect(e.settlingTrades).toBe(0);
    knobs = { ...CONFIRM_ALL, minedMs: 0, confirmedMs: 0 };
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.6', size: '10' }), T0 + 20_000);
    const instant = place(e, order({ owner: 'alice', side: 'BUY', price: '0.6', size: '10' }), T0 + 20_000);
    expect(e.tradeStatus(instant.trades[0]!)).toBe('CONFIRMED');
  });

  it('reverses a FAILED trade on the ledger: both parties as before it, fees and complete sets back', () => {
    const e = newEngine({ takerBaseFeeBps: 100, makerBaseFeeBps: 50 }, { settlement: { knobs: () => FAIL_ALL, seed: 1 } });
    e.split('addr-bob', COND, m('100'));
    const events: SimEvent[] = [];
    e.onEvent((ev) => events.push(ev));
    const before = { alice: e.ledger.balance('addr-alice'), bob: e.ledger.balance('addr-bob'), carol: e.ledger.balance('addr-carol') };
    // a TRANSFER (bob sells YES to alice) and a MINT (carol buys NO against a resting YES bid of alice)
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.6', size: '10' }), T0);
    place(e, order({ owner: 'alice', side: 'BUY', price: '0.6', size: '10' }), T0);
    place(e, order({ owner: 'alice', side: 'BUY', price: '0.3', size: '20' }), T0);
    place(e, order({ owner: 'carol', tokenId: NO, side: 'BUY', price: '0.7', size: '20' }), T0);
    expect(e.ledger.position('addr-alice', YES)).toBe(m('30'));
    expect(e.ledger.position('addr-carol', NO)).toBe(m('20'));
    conserved(e);
    e.expire(T0 + 60_000);
    const settled = events.filter((ev) => ev.type === 'TradeSettled').map((ev) => (ev.type === 'TradeSettled' ? ev.status : ''));
    expect(settled).toEqual(['RETRYING', 'RETRYING', 'FAILED', 'FAILED']);
    expect(e.ledger.position('addr-alice', YES)).toBe(0);
    expect(e.ledger.position('addr-carol', NO)).toBe(0);
    expect(e.ledger.balance('addr-alice').collateral + e.ledger.balance('addr-alice').collateralReserved).toBe(before.alice.collateral);
    expect(e.ledger.balance('addr-carol').collateral).toBe(before.carol.collateral);
    expect(e.ledger.position('addr-bob', YES)).toBe(m('100'));
    expect(e.ledger.balance('addr-bob').collateral).toBe(before.bob.collateral);
    expect(e.ledger.totals().feesCollected).toBe(0);
    conserved(e);
    // the orders keep what the venue matched
    expect(e.openOrders({ owner: 'alice' })).toHaveLength(0);
  });

  it('reverses a buy and the sale made from it alike, the ledger conserved', () => {
    const e = newEngine({}, { settlement: { knobs: () => FAIL_ALL, seed: 1 } });
    e.split('addr-bob', COND, m('100'));
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.6', size: '10' }), T0);
    place(e, order({ owner: 'alice', side: 'BUY', price: '0.6', size: '10' }), T0);
    place(e, order({ owner: 'carol', side: 'BUY', price: '0.7', size: '10' }), T0 + 1);
    place(e, order({ owner: 'alice', side: 'SELL', price: '0.7', size: '10' }), T0 + 1);
    e.expire(T0 + 60_000);
    conserved(e);
    expect(e.ledger.position('addr-alice', YES)).toBe(0); // both reversed: bought 10, sold 10, both void
  });

  it('follows only trades with a party that is not transient', () => {
    const e = newEngine({}, { settlement: { knobs: () => FAIL_ALL, seed: 1 }, transientOwner: (o) => o.startsWith('flow') });
    e.split('addr-flow1', COND, m('100'));
    place(e, order({ owner: 'flow1', side: 'SELL', price: '0.6', size: '10' }), T0);
    const r = place(e, order({ owner: 'flow2', side: 'BUY', price: '0.6', size: '10' }), T0);
    expect(e.settlingTrades).toBe(0);
    expect(e.tradeStatus(r.trades[0]!)).toBe('CONFIRMED');
  });
});

describe('matching engine: matching delay', () => {
  const delayed = () => newEngine({}, { matchingDelayMs: () => 3_000 });

  it('answers a marketable order DELAYED, lists it open, and matches it once the delay is over', () => {
    const e = delayed();
    e.split('addr-bob', COND, m('100'));
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.6', size: '10' }), T0);
    const buy = order({ owner: 'alice', side: 'BUY', price: '0.6', size: '10' });
    const r = e.submit(buy, T0);
    expect(r.status).toBe('DELAYED');
    expect(r.trades).toHaveLength(0);
    expect(e.order(buy.id)?.status).toBe('DELAYED');
    expect(e.openOrders({ owner: 'alice' }).map((o) => o.id)).toEqual([buy.id]);
    expect(e.submit({ ...buy }, T0 + 1).errorMsg).toMatch(/Duplicated/);
    e.expire(T0 + 2_999);
    expect(e.order(buy.id)?.status).toBe('DELAYED');
    e.expire(T0 + 3_000);
    expect(e.order(buy.id)?.status).toBe('MATCHED');
    expect(e.ledger.position('addr-alice', YES)).toBe(m('10'));
  });

  it('never delays a resting (non-marketable) or post-only order', () => {
    const e = delayed();
    expect(e.submit(order({ owner: 'alice', side: 'BUY', price: '0.4' }), T0).status).toBe('LIVE');
    e.split('addr-bob', COND, m('100'));
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.6', size: '10' }), T0);
    expect(e.submit(order({ owner: 'alice', side: 'BUY', price: '0.6', postOnly: true }), T0).status).toBe('REJECTED');
  });

  it('ends a delayed FOK that can no longer fill UNMATCHED, never on the book', () => {
    const e = delayed();
    e.split('addr-bob', COND, m('100'));
    const ask = order({ owner: 'bob', side: 'SELL', price: '0.6', size: '10' });
    place(e, ask, T0);
    const fok = order({ owner: 'alice', side: 'BUY', price: '0.6', size: '10', type: 'FOK' });
    expect(e.submit(fok, T0).status).toBe('DELAYED');
    e.cancel(ask.id, 'bob', T0 + 1_000);
    e.expire(T0 + 3_000);
    expect(e.order(fok.id)?.status).toBe('UNMATCHED');
    expect(e.openOrders({ owner: 'alice' })).toHaveLength(0);
    expect(e.ledger.position('addr-alice', YES)).toBe(0);
  });

  it('cancels a held order by id and by cancel-all', () => {
    const e = delayed();
    e.split('addr-bob', COND, m('100'));
    place(e, order({ owner: 'bob', side: 'SELL', price: '0.6', size: '10' }), T0);
    const a = order({ owner: 'alice', side: 'BUY', price: '0.6', size: '5' });
    const b = order({ owner: 'alice', side: 'BUY', price: '0.6', size: '5' });
    e.submit(a, T0);
    e.submit(b, T0);
    expect(e.cancel(a.id, 'bob', T0).canceled).toEqual([]);
    expect(e.cancel(a.id, 'alice', T0).canceled).toEqual([a.id]);
    expect(e.cancelAll('alice', T0).canceled).toEqual([b.id]);
    e.expire(T0 + 5_000);
    expect(e.order(a.id)?.status).toBe('CANCELED');
    expect(e.order(b.id)?.status).toBe('CANCELED');
    expect(e.ledger.position('addr-alice', YES)).toBe(0);
  });
});
