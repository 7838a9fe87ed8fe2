import { describe, expect, it } from 'vitest';
import { SimulatedExecutionClient } from '../../../src/sim/edge/simulated-execution.ts';
import { FeeRate } from '../../../src/core/money.ts';
import { constantLatency } from '../../../src/sim/edge/latency-model.ts';
import { queueModel, type QueueModel } from '../../../src/sim/edge/queue-model.ts';
import { SimulatedClock } from '../../../src/core/clock.ts';
import type { OrderType, Side } from '../../../src/core/types.ts';
import type { MarketEvent } from '../../../src/core/events.ts';
import type { SubmitResult, VenueFill, VenueOrderState } from '../../../src/execution/execution-client.ts';
import {
  ERR_BALANCE,
  ERR_FAK_NO_MATCH,
  ERR_FOK_UNFILLED,
  ERR_INVALID_PAYLOAD,
  ERR_POST_ONLY_CROSSES,
  ERR_PRICE_TICK,
  ERR_SIZE_MINIMUM,
} from '../../../src/sim/venue-messages.ts';
import type { OrderRequest } from '../../../src/core/intents.ts';
import { bookEvent, COND, m, T0, tradeEvent, YES } from '../../backtest/helpers.ts';

interface Harness {
  clock: SimulatedClock;
  venue: SimulatedExecutionClient;
  fills: VenueFill[];
  /** Sends one order now; returns a holder of its result (set when the answer arrives). */
  send(side: Side, price: string, size: string, type?: OrderType, extra?: Partial<OrderRequest>): { result?: SubmitResult; id: string };
  /** Hands an event to the venue at its time. */
  feed(event: MarketEvent): void;
  lookup(id: string): VenueOrderState | undefined;
  cancel(ids: string[]): { canceled: readonly string[]; notCanceled: Readonly<Record<string, string>> } | undefined;
}

function harness(options: { kind?: 'paper' | 'backtest'; queue?: QueueModel['name']; entryMs?: number; responseMs?: number; balance?: string; makerBps?: number; takerBps?: number } = {}): Harness {
  const clock = new SimulatedClock(T0);
  const venue = new SimulatedExecutionClient({
    kind: options.kind,
    clock,
    tokens: [
      {
        tokenId: YES,
        conditionId: COND,
        tickSize: m('0.01'),
        minOrderSize: m('5'),
        fees: { maker: new FeeRate(options.makerBps ?? 0), taker: new FeeRate(options.takerBps ?? 0) },
      },
    ],
    latency: constantLatency(options.entryMs ?? 0, options.responseMs ?? 0),
    queue: queueModel(options.queue ?? 'conservative'),
    balance: m(options.balance ?? '10000'),
  });
  const fills: VenueFill[] = [];
  venue.fills$.subscribe((f) => fills.push(f));
  let seq = 0;
  const settle = () => clock.advanceTo(clock.now());
  return {
    clock,
    venue,
    fills,
    send(side, price, size, type = 'GTC', extra = {}) {
      const request: OrderRequest = {
        kind: 'place',
        tokenId: YES,
        side,
        price: m(price),
        size: m(size),
        orderType: type,
        strategyId: 's',
        clientOrderId: `c${++seq}`,
        conditionId: COND,
        createdAt: clock.now(),
        ...extra,
      };
      const holder: { result?: SubmitResult; id: string } = { id: `bt-${request.clientOrderId}` };
      venue.submit([{ request, orderId: holder.id, payload: undefined }]).subscribe((r) => (holder.result = r[0]));
      settle();
      return holder;
    },
    feed(event) {
      clock.advanceTo(event.tsInit);
      venue.onMarketEvent(event);
      settle();
    },
    lookup(id) {
      let out: VenueOrderState | undefined;
      venue.order(id).subscribe((s) => (out = s));
      settle();
      return out;
    },
    cancel(ids) {
      let out: { canceled: readonly string[]; notCanceled: Readonly<Record<string, string>> } | undefined;
      venue.cancel(ids).subscribe((o) => (out = o));
      settle();
      return out;
    },
  };
}

const BOOK: [readonly (readonly [string, string])[], readonly (readonly [string, string])[]] = [
  [['0.50', '100'], ['0.49', '200'], ['0.48', '300']],
  [['0.52', '40'], ['0.53', '50'], ['0.55', '100']],
];

const sizes = (fills: readonly VenueFill[]) => fills.map((f) => [f.price, f.size, f.liquidity]);

describe('SimulatedExecutionClient: resting orders and the queue (conservative)', () => {
  it('fills only after the displayed queue ahead has traded away', () => {
    const h = harness();
    h.feed(bookEvent(T0, ...BOOK));
    const a = h.send('BUY', '0.50', '20');
    expect(a.result).toMatchObject({ ok: true, status: 'LIVE' });
    // the level shrinks by cancels: in the conservative model they were behind us
    h.feed(bookEvent(T0 + 100, [['0.50', '70'], ['0.49', '200']], BOOK[1]));
    expect(h.fills).toEqual([]);
    // 70 of trades at our price: exactly the queue still ahead of us (min(100, 70) = 70)
    h.feed(tradeEvent(T0 + 200, 'SELL', '0.50', '70'));
    expect(h.fills).toEqual([]);
    // the next print is ours
    h.feed(tradeEvent(T0 + 300, 'SELL', '0.50', '15'));
    expect(sizes(h.fills)).toEqual([[m('0.50'), m('15'), 'MAKER']]);
    h.feed(tradeEvent(T0 + 400, 'SELL', '0.50', '50'));
    expect(sizes(h.fills)).toEqual([
      [m('0.50'), m('15'), 'MAKER'],
      [m('0.50'), m('5'), 'MAKER'],
    ]);
    expect(h.lookup(a.id)).toMatchObject({ status: 'MATCHED', sizeMatched: m('20') });
  });

  it('never fills on a shrinking level alone, even one that vanishes', () => {
    const h = harness();
    h.feed(bookEvent(T0, ...BOOK));
    h.send('BUY', '0.50', '20');
    h.feed(bookEvent(T0 + 100, [['0.50', '10'], ['0.49', '200']], BOOK[1]));
    h.feed(bookEvent(T0 + 200, [['0.49', '200']], BOOK[1]));
    expect(h.fills).toEqual([]);
    // at the front now: the first print at our price is ours
    h.feed(tradeEvent(T0 + 300, 'SELL', '0.50', '8'));
    expect(sizes(h.fills)).toEqual([[m('0.50'), m('8'), 'MAKER']]);
  });

  it('fills on a crossing at our price, up to the size that crossed, after anything shown ahead', () => {
    const h = harness({ makerBps: 100 });
    h.feed(bookEvent(T0, ...BOOK));
    const a = h.send('BUY', '0.50', '50');
    // sellers came down through our bid: 0.49×10 and 0.50×15 would have met us
    h.feed(bookEvent(T0 + 100, [['0.48', '300']], [['0.49', '10'], ['0.50', '15'], ['0.52', '40']]));
    expect(sizes(h.fills)).toEqual([[m('0.50'), m('25'), 'MAKER']]);
    expect(h.fills[0]!.fee).toBe(m('0.125')); // 1% × 0.5 × 25
    // the same crossing shown again is not used twice
    h.feed(bookEvent(T0 + 200, [['0.48', '300']], [['0.49', '10'], ['0.50', '15'], ['0.52', '40']]));
    expect(h.fills).toHaveLength(1);
    // more size arrives at 0.50: only the new 20 is there for us
    h.feed(bookEvent(T0 + 300, [['0.48', '300']], [['0.49', '10'], ['0.50', '35'], ['0.52', '40']]));
    expect(sizes(h.fills).at(-1)).toEqual([m('0.50'), m('20'), 'MAKER']);
    expect(h.lookup(a.id)).toMatchObject({ status: 'LIVE', sizeMatched: m('45') });
  });

  it('fills from a trade print that went through our price', () => {
    const h = harness();
    h.feed(bookEvent(T0, ...BOOK));
    // alone at 0.51, above the best bid: a seller printing at 0.50 passed us first
    h.send('BUY', '0.51', '30');
    h.feed(tradeEvent(T0 + 100, 'SELL', '0.50', '12'));
    expect(sizes(h.fills)).toEqual([[m('0.51'), m('12'), 'MAKER']]);
    // a print on the other side of the book does nothing
    h.feed(tradeEvent(T0 + 200, 'BUY', '0.52', '40'));
    expect(h.fills).toHaveLength(1);
  });

  it('keeps the queue of an order deeper than the recorded depth until its level shows', () => {
    const h = harness();
    h.feed(bookEvent(T0, ...BOOK));
    h.send('BUY', '0.45', '10');
    // the level comes into view with 40 in front
    h.feed(bookEvent(T0 + 100, [['0.47', '100'], ['0.46', '100'], ['0.45', '40']], BOOK[1]));
    h.feed(tradeEvent(T0 + 200, 'SELL', '0.45', '40'));
    expect(h.fills).toEqual([]);
    h.feed(tradeEvent(T0 + 300, 'SELL', '0.45', '10'));
    expect(sizes(h.fills)).toEqual([[m('0.45'), m('10'), 'MAKER']]);
  });

  it('the same for a SELL: asks are its queue, bids crossing up fill it', () => {
    const h = harness();
    h.feed(bookEvent(T0, ...BOOK));
    h.send('BUY', '0.52', '40', 'FAK');
    const ask = h.send('SELL', '0.53', '30');
    expect(ask.result).toMatchObject({ ok: true, status: 'LIVE' });
    h.feed(tradeEvent(T0 + 100, 'BUY', '0.53', '60'));
    // 50 were ahead at 0.53; the last 10 of the print are ours
    expect(sizes(h.fills).at(-1)).toEqual([m('0.53'), m('10'), 'MAKER']);
    h.feed(bookEvent(T0 + 200, [['0.54', '25']], [['0.55', '100']]));
    expect(sizes(h.fills).at(-1)).toEqual([m('0.53'), m('20'), 'MAKER']);
  });
});

describe('SimulatedExecutionClient: two of our orders at one price (docs/fill-model.md, the worked example)', () => {
  /**
   * The recording of the doc's example: 100 shown at 0.50 when A (BUY 20) arrives, 130 when B
   * (BUY 20) arrives, then sellers print 60, 50, 45 and 15 at 0.50.
   */
  function twoOrders(queue: QueueModel['name'] = 'conservative') {
    const h = harness({ queue });
    h.feed(bookEvent(T0, [['0.50', '100'], ['0.49', '200']], BOOK[1]));
    const a = h.send('BUY', '0.50', '20');
    h.feed(bookEvent(T0 + 100, [['0.50', '130'], ['0.49', '200']], BOOK[1]));
    const b = h.send('BUY', '0.50', '20');
    const filled = () => [h.lookup(a.id)?.sizeMatched, h.lookup(b.id)?.sizeMatched];
    return { h, a, b, filled };
  }

  it.each(['conservative', 'probabilistic', 'optimistic'] as const)('%s: each print moves both queues, and what fills A is not counted for B', (queue) => {
    const { h, a, b, filled } = twoOrders(queue);
    // 60 of the 100 in front of A trade: they were in front of B too (130 -> 70)
    h.feed(tradeEvent(T0 + 200, 'SELL', '0.50', '60'));
    expect(filled()).toEqual([0, 0]);
    // 40 more reach the front of A, the last 10 fill A; B's queue: 70 -> 30
    h.feed(tradeEvent(T0 + 300, 'SELL', '0.50', '50'));
    expect(filled()).toEqual([m('10'), 0]);
    // 10 finish A; of the other 35, 30 are the rest of B's queue and 5 fill B. Had the 10 that
    // filled A also been counted for B, B would get 15 here.
    h.feed(tradeEvent(T0 + 400, 'SELL', '0.50', '45'));
    expect(filled()).toEqual([m('20'), m('5')]);
    expect(h.lookup(a.id)).toMatchObject({ status: 'MATCHED' });
    // B is at the front: the next print fills it
    h.feed(tradeEvent(T0 + 500, 'SELL', '0.50', '15'));
    expect(filled()).toEqual([m('20'), m('20')]);
    expect(h.lookup(b.id)).toMatchObject({ status: 'MATCHED' });
    expect(sizes(h.fills)).toEqual([
      [m('0.50'), m('10'), 'MAKER'],
      [m('0.50'), m('10'), 'MAKER'],
      [m('0.50'), m('5'), 'MAKER'],
      [m('0.50'), m('15'), 'MAKER'],
    ]);
    expect(h.fills.map((f) => f.orderId)).toEqual([a.id, a.id, b.id, b.id]);
  });

  it('optimistic: a shrink past both queues fills A with what is beyond A, and only the rest of it is there for B', () => {
    const { h, filled } = twoOrders('optimistic');
    // 10 join behind B; then the level vanishes: 140 displayed left, read as trades at the front.
    // A: 100 in front, 20 of the other 40 fill it; B: 130 in front, of the 10 beyond it none is
    // left once A's 20 are counted (the 40 beyond A included those 10)
    h.feed(bookEvent(T0 + 200, [['0.50', '140'], ['0.49', '200']], BOOK[1]));
    h.feed(bookEvent(T0 + 300, [['0.49', '200']], BOOK[1]));
    expect(filled()).toEqual([m('20'), 0]);
  });

  it('a snapshot after the prints explains the shrink by them: no queue moves twice', () => {
    const { h, filled } = twoOrders();
    h.feed(tradeEvent(T0 + 200, 'SELL', '0.50', '60'));
    // the level shows the 60 gone: the prints explain all of it
    h.feed(bookEvent(T0 + 300, [['0.50', '70'], ['0.49', '200']], BOOK[1]));
    h.feed(tradeEvent(T0 + 400, 'SELL', '0.50', '50'));
    expect(filled()).toEqual([m('10'), 0]);
    h.feed(tradeEvent(T0 + 500, 'SELL', '0.50', '45'));
    expect(filled()).toEqual([m('20'), m('5')]);
  });
});

describe('SimulatedExecutionClient: the other queue models', () => {
  it('probabilistic: a shrink comes off the queue ahead in proportion to its share', () => {
    const h = harness({ queue: 'probabilistic' });
    h.feed(bookEvent(T0, [['0.50', '60']], BOOK[1]));
    h.send('BUY', '0.50', '20');
    // 40 more join behind us; then 50 leave: 60/100 of it (30) from ahead of us
    h.feed(bookEvent(T0 + 100, [['0.50', '100']], BOOK[1]));
    h.feed(bookEvent(T0 + 200, [['0.50', '50']], BOOK[1]));
    h.feed(tradeEvent(T0 + 300, 'SELL', '0.50', '30'));
    expect(h.fills).toEqual([]);
    h.feed(tradeEvent(T0 + 400, 'SELL', '0.50', '5'));
    expect(sizes(h.fills)).toEqual([[m('0.50'), m('5'), 'MAKER']]);
  });

  it('probabilistic: a shrink the trade prints explain is not counted twice', () => {
    const h = harness({ queue: 'probabilistic' });
    h.feed(bookEvent(T0, [['0.50', '100']], BOOK[1]));
    h.send('BUY', '0.50', '20');
    h.feed(tradeEvent(T0 + 100, 'SELL', '0.50', '40'));
    // the book shows the 40 that traded: nothing more comes off the 60 still ahead
    h.feed(bookEvent(T0 + 200, [['0.50', '60']], BOOK[1]));
    h.feed(tradeEvent(T0 + 300, 'SELL', '0.50', '60'));
    expect(h.fills).toEqual([]);
    h.feed(tradeEvent(T0 + 400, 'SELL', '0.50', '5'));
    expect(h.fills).toHaveLength(1);
  });

  it('optimistic: a shrink eats the queue ahead and the rest of it fills us', () => {
    const h = harness({ queue: 'optimistic' });
    h.feed(bookEvent(T0, [['0.50', '60']], BOOK[1]));
    h.send('BUY', '0.50', '20');
    h.feed(bookEvent(T0 + 100, [['0.50', '100']], BOOK[1]));
    h.feed(bookEvent(T0 + 200, [['0.50', '25']], BOOK[1]));
    // 75 gone: 60 ahead, then 15 ours
    expect(sizes(h.fills)).toEqual([[m('0.50'), m('15'), 'MAKER']]);
  });
});

describe('SimulatedExecutionClient: marketable orders against displayed depth', () => {
  it('walks the levels at their own prices and never uses the same liquidity twice', () => {
    const h = harness({ takerBps: 100 });
    h.feed(bookEvent(T0, ...BOOK));
    const a = h.send('BUY', '0.53', '60', 'FAK');
    expect(a.result).toMatchObject({ ok: true, status: 'MATCHED', making: m('31.4'), taking: m('60') });
    expect(h.fills.map((f) => [f.price, f.size, f.fee, f.liquidity])).toEqual([
      [m('0.52'), m('40'), m('0.192'), 'TAKER'],
      [m('0.53'), m('20'), m('0.094'), 'TAKER'],
    ]);
    // within the same snapshot, only the 30 left at 0.53
    const b = h.send('BUY', '0.53', '50', 'FAK');
    expect(b.result).toMatchObject({ ok: true, status: 'MATCHED' });
    expect(sizes(h.fills).at(-1)).toEqual([m('0.53'), m('30'), 'TAKER']);
    // the next snapshot shows the recorded (untouched) levels again: still used up
    h.feed(bookEvent(T0 + 100, ...BOOK));
    const c = h.send('BUY', '0.53', '10', 'FAK');
    expect(c.result).toMatchObject({ ok: false, errorMsg: ERR_FAK_NO_MATCH });
    // a level that shows less than we took: the rest of it is what left
    h.feed(bookEvent(T0 + 200, BOOK[0], [['0.52', '10'], ['0.53', '50']]));
    h.feed(bookEvent(T0 + 300, BOOK[0], [['0.52', '25'], ['0.53', '50']]));
    const d = h.send('BUY', '0.52', '20', 'FAK');
    expect(sizes(h.fills).at(-1)).toEqual([m('0.52'), m('15'), 'TAKER']);
    expect(d.result).toMatchObject({ ok: true, status: 'MATCHED' });
  });

  it('FOK fills completely from the depth or is rejected with nothing taken', () => {
    const h = harness();
    h.feed(bookEvent(T0, ...BOOK));
    const big = h.send('BUY', '0.53', '91', 'FOK');
    expect(big.result).toEqual({ ok: false, orderId: big.id, errorMsg: ERR_FOK_UNFILLED });
    expect(h.fills).toEqual([]);
    const ok = h.send('BUY', '0.53', '90', 'FOK');
    expect(ok.result).toMatchObject({ ok: true, status: 'MATCHED' });
    expect(h.fills.reduce((a, f) => a + f.size, 0)).toBe(m('90'));
    const none = h.send('BUY', '0.50', '10', 'FOK');
    expect(none.result).toMatchObject({ ok: false, errorMsg: ERR_FOK_UNFILLED });
  });

  it('FAK takes what there is and the rest is killed', () => {
    const h = harness();
    h.feed(bookEvent(T0, ...BOOK));
    const a = h.send('SELL', '0.48', '10', 'FAK');
    expect(a.result).toMatchObject({ ok: false, errorMsg: ERR_BALANCE }); // no tokens to sell yet
    h.send('BUY', '0.55', '190', 'FAK');
    const s = h.send('SELL', '0.49', '400', 'FAK');
    expect(s.result).toMatchObject({ ok: false, errorMsg: ERR_BALANCE });
    const t = h.send('SELL', '0.50', '190', 'FAK');
    expect(t.result).toMatchObject({ ok: true, status: 'MATCHED' });
    // only the 100 at 0.50 is within the limit; the other 90 are killed
    expect(sizes(h.fills).at(-1)).toEqual([m('0.50'), m('100'), 'TAKER']);
    expect(h.lookup(t.id)).toMatchObject({ status: 'CANCELED', sizeMatched: m('100'), originalSize: m('190') });
    const u = h.send('SELL', '0.49', '0', 'FAK');
    expect(u.result).toMatchObject({ ok: false, errorMsg: ERR_SIZE_MINIMUM });
    const v = h.send('SELL', '0.49', '90', 'FAK');
    expect(v.result).toMatchObject({ ok: true, status: 'MATCHED' });
    expect(sizes(h.fills).at(-1)).toEqual([m('0.49'), m('90'), 'TAKER']);
    expect(h.venue.position(YES)).toBe(0);
  });

  it('a GTC that crosses takes the depth, then rests its remainder', () => {
    const h = harness();
    h.feed(bookEvent(T0, ...BOOK));
    const a = h.send('BUY', '0.52', '70');
    expect(a.result).toMatchObject({ ok: true, status: 'MATCHED' });
    expect(sizes(h.fills)).toEqual([[m('0.52'), m('40'), 'TAKER']]);
    expect(h.lookup(a.id)).toMatchObject({ status: 'LIVE', sizeMatched: m('40') });
    // a new seller at 0.52 meets our resting rest
    h.feed(bookEvent(T0 + 100, BOOK[0], [['0.52', '55']]));
    expect(sizes(h.fills).at(-1)).toEqual([m('0.52'), m('15'), 'MAKER']);
  });
});

describe('SimulatedExecutionClient: venue rules', () => {
  it('rejects a post-only order that would cross, and other bad orders, with the venue strings', () => {
    const h = harness();
    h.feed(bookEvent(T0, ...BOOK));
    expect(h.send('BUY', '0.52', '10', 'GTC', { postOnly: true }).result).toMatchObject({ ok: false, errorMsg: ERR_POST_ONLY_CROSSES });
    expect(h.send('SELL', '0.50', '10', 'GTC', { postOnly: true }).result).toMatchObject({ ok: false, errorMsg: ERR_BALANCE });
    expect(h.send('BUY', '0.515', '10').result).toMatchObject({ ok: false, errorMsg: ERR_PRICE_TICK });
    expect(h.send('BUY', '0.51', '4.99').result).toMatchObject({ ok: false, errorMsg: ERR_SIZE_MINIMUM });
    expect(h.send('BUY', '0.51', '5.001').result).toMatchObject({ ok: false, errorMsg: ERR_INVALID_PAYLOAD });
    expect(h.send('BUY', '0.51', '10', 'FAK', { postOnly: true }).result).toMatchObject({ ok: false, errorMsg: ERR_INVALID_PAYLOAD });
    expect(h.send('BUY', '0.51', '10', 'GTC', { postOnly: true }).result).toMatchObject({ ok: true, status: 'LIVE' });
  });

  it('applies the tick and minimum size the recording showed last', () => {
    const h = harness();
    h.feed(bookEvent(T0, ...BOOK));
    h.feed({ type: 'tickSize', tokenId: YES, tickSize: m('0.001'), tsEvent: T0 + 10, tsInit: T0 + 10 });
    expect(h.send('BUY', '0.505', '10').result).toMatchObject({ ok: true });
    h.feed(bookEvent(T0 + 20, ...BOOK, { tickSize: '0.01', minOrderSize: '15' }));
    expect(h.send('BUY', '0.505', '20').result).toMatchObject({ ok: false, errorMsg: ERR_PRICE_TICK });
    expect(h.send('BUY', '0.50', '10').result).toMatchObject({ ok: false, errorMsg: ERR_SIZE_MINIMUM });
    expect(h.send('BUY', '0.50', '15').result).toMatchObject({ ok: true });
  });

  it('holds collateral for resting buys and refuses what the balance cannot cover', () => {
    const h = harness({ balance: '100', makerBps: 100, takerBps: 200 });
    h.feed(bookEvent(T0, ...BOOK));
    // 150 × 0.50 = 75 plus the largest fee (2% × 0.5 × 150 = 1.5) fits in 100
    const a = h.send('BUY', '0.50', '150');
    expect(a.result).toMatchObject({ ok: true, status: 'LIVE' });
    // held: 75 + maker fee 0.75
    expect(h.venue.collateral).toBe(m('24.25'));
    expect(h.send('BUY', '0.49', '50').result).toMatchObject({ ok: false, errorMsg: ERR_BALANCE });
    expect(h.cancel([a.id])).toEqual({ canceled: [a.id], notCanceled: {} });
    expect(h.venue.collateral).toBe(m('100'));
    expect(h.cancel([a.id])?.notCanceled[a.id]).toBe('order not found or already canceled');
  });
});

describe('SimulatedExecutionClient: GTD expiry', () => {
  it('expires a GTD order at its time and gives back what it held', () => {
    const h = harness();
    h.feed(bookEvent(T0, ...BOOK));
    expect(h.send('BUY', '0.50', '10', 'GTD', { expiresAt: T0 }).result).toMatchObject({ ok: false, errorMsg: ERR_INVALID_PAYLOAD });
    const a = h.send('BUY', '0.50', '10', 'GTD', { expiresAt: T0 + 500 });
    expect(a.result).toMatchObject({ ok: true, status: 'LIVE' });
    expect(h.venue.collateral).toBe(m('9995'));
    h.feed(bookEvent(T0 + 400, ...BOOK));
    expect(h.lookup(a.id)).toMatchObject({ status: 'LIVE' });
    h.feed(bookEvent(T0 + 600, ...BOOK));
    expect(h.lookup(a.id)).toMatchObject({ status: 'CANCELED', sizeMatched: 0 });
    expect(h.venue.collateral).toBe(m('10000'));
    expect(h.venue.stats.expired).toBe(1);
    // an expired order takes no fill
    h.feed(tradeEvent(T0 + 700, 'SELL', '0.50', '500'));
    expect(h.fills).toEqual([]);
  });
});

describe('SimulatedExecutionClient: latency', () => {
  it('matches an order against the book at its arrival and answers after the response delay', () => {
    const h = harness({ entryMs: 50, responseMs: 30 });
    h.feed(bookEvent(T0, ...BOOK));
    const a = h.send('BUY', '0.52', '40', 'FAK');
    // the book changes before the order arrives: the 0.52 level is gone
    h.feed(bookEvent(T0 + 20, BOOK[0], [['0.53', '50']]));
    h.clock.advanceTo(T0 + 79);
    expect(a.result).toBeUndefined();
    h.clock.advanceTo(T0 + 80);
    expect(a.result).toMatchObject({ ok: false, errorMsg: ERR_FAK_NO_MATCH });
    // fills travel back the same way: a crossing at t is heard at t + 30
    h.send('BUY', '0.50', '10');
    h.clock.advanceTo(T0 + 200);
    h.feed(bookEvent(T0 + 300, [['0.48', '10']], [['0.49', '10']]));
    expect(h.fills).toEqual([]);
    h.clock.advanceTo(T0 + 330);
    expect(h.fills.map((f) => [f.tsEvent - T0, f.tsInit - T0, f.size])).toEqual([[300, 330, m('10')]]);
  });
});

describe('SimulatedExecutionClient: the mode it serves', () => {
  it('names itself after its kind (backtest by default) and so do its trade ids', () => {
    for (const kind of ['backtest', 'paper'] as const) {
      const h = harness({ kind });
      expect(h.venue.kind).toBe(kind);
      h.feed(bookEvent(T0, ...BOOK));
      h.send('BUY', '0.52', '10', 'FAK');
      expect(h.fills.map((f) => f.tradeId)).toEqual([kind === 'paper' ? 'paper-trade-1' : 'bt-trade-1']);
    }
    expect(harness().venue.kind).toBe('backtest');
  });
});
