import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.ts';
import type { OrderRequest } from '../../../src/core/intents.ts';
import { FeeRate } from '../../../src/core/money.ts';
import type { OrderType, Side } from '../../../src/core/types.ts';
import type { SubmitResult, VenueFill, VenueOrderState } from '../../../src/execution/execution-client.ts';
import { constantLatency } from '../../../src/sim/edge/latency-model.ts';
import { queueModel } from '../../../src/sim/edge/queue-model.ts';
import { SimulatedExecutionClient, type SimulatedExecutionOptions } from '../../../src/sim/edge/simulated-execution.ts';
import { bookEvent, COND, m, T0, YES } from '../../backtest/helpers.ts';

function venueWith(options: Partial<SimulatedExecutionOptions>) {
  const clock = new SimulatedClock(T0);
  const venue = new SimulatedExecutionClient({
    clock,
    tokens: [{ tokenId: YES, conditionId: COND, tickSize: m('0.01'), minOrderSize: m('5'), fees: { maker: new FeeRate(0), taker: new FeeRate(100) } }],
    latency: constantLatency(10, 10),
    queue: queueModel('conservative'),
    balance: m('1000'),
    ...options,
  });
  const fills: VenueFill[] = [];
  venue.fills$.subscribe((f) => fills.push(f));
  venue.onMarketEvent(bookEvent(T0, [['0.45', '100']], [['0.55', '100']]));
  let seq = 0;
  const send = (side: Side, price: string, size: string, type: OrderType = 'GTC'): { result?: SubmitResult; id: string } => {
    const request: OrderRequest = { kind: 'place', tokenId: YES, side, price: m(price), size: m(size), orderType: type, strategyId: 's', clientOrderId: `c${++seq}`, conditionId: COND, createdAt: clock.now() };
    const holder: { result?: SubmitResult; id: string } = { id: request.clientOrderId };
    venue.submit([{ request, orderId: holder.id, payload: undefined }]).subscribe((r) => (holder.result = r[0]));
    return holder;
  };
  const lookup = (id: string): VenueOrderState | undefined => {
    let out: VenueOrderState | undefined;
    venue.order(id).subscribe((s) => (out = s));
    clock.advanceBy(20);
    return out;
  };
  return { clock, venue, fills, send, lookup };
}

describe('paper/backtest edge: settlement', () => {
  it('reports a fill MATCHED, then each settlement status with the same trade id, on the clock', () => {
    const w = venueWith({ settlement: { minedMs: 2_000, confirmedMs: 4_000, retryRate: 0, failRate: 0 } });
    w.send('BUY', '0.55', '10');
    w.clock.advanceBy(20);
    expect(w.fills.map((f) => f.status)).toEqual(['MATCHED']);
    w.clock.advanceBy(60_000);
    expect(w.fills.map((f) => f.status)).toEqual(['MATCHED', 'MINED', 'CONFIRMED']);
    expect(new Set(w.fills.map((f) => f.tradeId)).size).toBe(1);
    expect(w.venue.position(YES)).toBe(m('10'));
  });

  it('undoes a FAILED fill on our account: tokens and collateral, fee included, as before it', () => {
    const w = venueWith({ settlement: { minedMs: 1_000, confirmedMs: 1_000, retryRate: 0, failRate: 1 } });
    const before = w.venue.collateral;
    w.send('BUY', '0.55', '10');
    w.clock.advanceBy(20);
    expect(w.venue.position(YES)).toBe(m('10'));
    expect(w.venue.collateral).toBeLessThan(before);
    w.clock.advanceBy(60_000);
    expect(w.fills.map((f) => f.status)).toEqual(['MATCHED', 'RETRYING', 'FAILED']);
    expect(w.venue.position(YES)).toBe(0);
    expect(w.venue.collateral).toBe(before);
  });

  it('settles the same way in two runs of the same seed', () => {
    const run = () => {
      const w = venueWith({ settlement: { minedMs: 1_000, confirmedMs: 1_000, retryRate: 0.3, failRate: 0.3 }, settlementSeed: 5 });
      for (let i = 0; i < 8; i++) w.send('BUY', '0.55', '5');
      w.clock.advanceBy(60_000);
      return w.fills.map((f) => `${f.tradeId} ${f.status}`);
    };
    expect(run()).toEqual(run());
  });

  it('reports fills CONFIRMED at once without settlement knobs (as before)', () => {
    const w = venueWith({});
    w.send('BUY', '0.55', '10');
    w.clock.advanceBy(20);
    expect(w.fills.map((f) => f.status)).toEqual(['CONFIRMED']);
  });
});

describe('paper/backtest edge: matching delay', () => {
  it('answers a marketable order DELAYED and fills it once the delay is over, from the book as it is then', () => {
    const w = venueWith({ matchingDelayMs: 3_000 });
    const order = w.send('BUY', '0.55', '10');
    w.clock.advanceBy(20);
    expect(order.result).toMatchObject({ ok: true, status: 'DELAYED', making: 0, taking: 0 });
    expect(w.lookup(order.id)?.status).toBe('DELAYED');
    expect(w.fills).toHaveLength(0);
    w.clock.advanceBy(3_000);
    expect(w.fills).toHaveLength(1);
    expect(w.lookup(order.id)?.status).toBe('MATCHED');
  });

  it('ends a delayed FOK UNMATCHED when the book no longer fills it; a resting order is never delayed', () => {
    const w = venueWith({ matchingDelayMs: 3_000 });
    const fok = w.send('BUY', '0.55', '10', 'FOK');
    w.clock.advanceBy(1_000);
    w.venue.onMarketEvent(bookEvent(w.clock.now(), [['0.45', '100']], [['0.60', '100']]));
    w.clock.advanceBy(3_000);
    expect(w.lookup(fok.id)?.status).toBe('UNMATCHED');
    expect(w.fills).toHaveLength(0);
    const resting = w.send('BUY', '0.40', '10');
    w.clock.advanceBy(20);
    expect(resting.result).toMatchObject({ ok: true, status: 'LIVE' });
  });

  it('cancels a delayed order: it never reaches the book', () => {
    const w = venueWith({ matchingDelayMs: 3_000 });
    const order = w.send('BUY', '0.55', '10');
    w.clock.advanceBy(20);
    let canceled: readonly string[] = [];
    w.venue.cancelAll().subscribe((r) => (canceled = r.canceled));
    w.clock.advanceBy(5_000);
    expect(canceled).toEqual([order.id]);
    expect(w.lookup(order.id)?.status).toBe('CANCELED');
    expect(w.fills).toHaveLength(0);
  });
});
