import { describe, expect, it } from 'vitest';
import { TransportError, VenueRejectError } from '../../src/core/errors.ts';
import { AccountSync } from '../../src/engine/account-sync.ts';
import { FillBook } from '../../src/engine/fill-book.ts';
import { reservedByOpenBuys } from '../../src/portfolio/free-balance.ts';
import type { AccountNote, AccountReading, EnginePersistence } from '../../src/engine/ports.ts';
import { Portfolio } from '../../src/portfolio/portfolio.ts';
import { RiskEngine } from '../../src/risk/risk-engine.ts';
import type { RiskState } from '../../src/risk/types.ts';
import { COND, deskOn, M, request, T0, YES } from './parts.ts';

/** The account sync on a virtual clock, its readings scripted (the venue's answers, as the live edge decodes them). */

function reading(cash: number, held: Record<string, number> = {}): AccountReading {
  return { cash, positions: new Map(Object.entries(held)) };
}

function setUp(intervalMs = 1_000) {
  const notes: AccountNote[] = [];
  const persistence = { account: (note: AccountNote) => notes.push(note), transaction: <T>(fn: () => T) => fn() } as unknown as EnginePersistence;
  const { desk, clock } = deskOn({ persistence });
  const portfolio = new Portfolio(0);
  const queue: AccountReading[] = [];
  let last: AccountReading = reading(0);
  const source = { read: () => Promise.resolve((last = queue.shift() ?? last)) };
  const sync = new AccountSync(desk, portfolio, () => 500_000, { source, intervalMs });
  return { desk, clock, portfolio, sync, queue, notes };
}

describe('AccountSync', () => {
  it('tries the first reading again after a transient failure (network, 5xx), never after a refusal', async () => {
    const { desk, clock, portfolio } = setUp();
    const answers: (AccountReading | Error)[] = [new TransportError('connection reset', false), new VenueRejectError('503', 503, 'GET /balance-allowance', 'busy', undefined), reading(700 * M)];
    let reads = 0;
    const source = {
      read: () => {
        reads++;
        const next = answers.shift()!;
        return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
      },
    };
    const sync = new AccountSync(desk, portfolio, () => undefined, { source, intervalMs: 0 });
    const loaded = sync.load(false);
    for (let i = 0; i < 10 && reads < 3; i++) {
      await new Promise((r) => setImmediate(r));
      clock.advanceBy(500);
    }
    await loaded;
    expect(reads).toBe(3);
    expect(portfolio.balance()).toBe(700 * M);

    const refused = new AccountSync(desk, portfolio, () => undefined, { source: { read: () => Promise.reject(new VenueRejectError('401', 401, 'GET /balance-allowance', 'Unauthorized', undefined)) }, intervalMs: 0 });
    await expect(refused.load(false)).rejects.toThrow('401');
  });

  it('takes the venue’s cash and the shares beyond the bot’s own at the first reading, and notes them for the store', async () => {
    const { sync, portfolio, queue, notes } = setUp();
    portfolio.applyFill({ tokenId: YES, side: 'BUY', price: 400_000, size: 4 * M, fee: 0 });
    queue.push(reading(9_000 * M, { [YES]: 10 * M }));
    await sync.load(false);
    expect(portfolio.balance()).toBe(9_000 * M);
    expect(sync.outsideSize(YES)).toBe(6 * M);
    expect(sync.outside()).toEqual([{ tokenId: YES, size: '6', mark: '0.5', value: '3' }]);
    expect(notes).toEqual([{ at: T0, source: 'venue', cash: 9_000 * M, marks: { [YES]: 500_000 }, outside: [{ tokenId: YES, size: 6 * M }] }]);
  });

  it('changes an outside size only once the readings have shown it for max(5 s, two periods)', () => {
    const { sync, clock } = setUp(1_000);
    sync.apply(reading(100 * M, { [YES]: 10 * M }));
    expect(sync.outsideSize(YES)).toBe(10 * M);
    // the bot's own buy reached the venue before its fill reached us: 15 for a moment
    clock.advanceBy(1_000);
    sync.apply(reading(100 * M, { [YES]: 15 * M }));
    clock.advanceBy(1_000);
    sync.apply(reading(100 * M, { [YES]: 10 * M }));
    expect(sync.outsideSize(YES)).toBe(10 * M);
    // the shares are sold by hand: none outside once that holds for 5 s
    for (let i = 0; i < 5; i++) {
      clock.advanceBy(1_000);
      sync.apply(reading(100 * M, {}));
      expect(sync.outsideSize(YES)).toBe(10 * M);
    }
    clock.advanceBy(1_000);
    sync.apply(reading(100 * M, {}));
    expect(sync.outsideSize(YES)).toBe(0);
    expect(sync.outside()).toEqual([]);
  });

  it('applies a reading with the fills the venue had counted: a fill delivered after it moves nothing, one after it moves the cash once', () => {
    const { sync, portfolio, notes, clock } = setUp();
    sync.apply(reading(100 * M));
    const fill = (at: number, price: number) => {
      const before = portfolio.balance();
      portfolio.applyFill({ tokenId: YES, side: 'BUY', price, size: 10 * M, fee: 0 });
      sync.cashMoved(at, portfolio.balance() - before);
    };
    // a fill matched at +2 s reaches us at +5 s: the cash moves by its cost
    clock.advanceBy(5_000);
    fill(T0 + 2_000, 400_000);
    expect(portfolio.balance()).toBe(96 * M);
    // the venue matched a BUY (cost 3) at +12 s; our reading at +20 s holds it, the fill is still on its way
    clock.advanceBy(15_000);
    sync.apply(reading(93 * M, { [YES]: 20 * M }), T0 + 20_000);
    expect(portfolio.balance()).toBe(93 * M);
    expect(notes.at(-1)?.cash).toBe(93 * M);
    // it arrives: counted by the reading already, so the cash stays (and the store hears so)
    clock.advanceBy(1_000);
    fill(T0 + 12_000, 300_000);
    expect(portfolio.balance()).toBe(93 * M);
    expect(notes.at(-1)?.cash).toBe(93 * M);
    // a fill matched after the reading moves it once; a later reading takes a deposit of 1
    clock.advanceBy(4_000);
    fill(T0 + 25_000, 100_000);
    expect(portfolio.balance()).toBe(92 * M);
    clock.advanceBy(5_000);
    sync.apply(reading(93 * M, { [YES]: 30 * M }), T0 + 30_000);
    expect(portfolio.balance()).toBe(93 * M);
  });

  it('never calls our own fill outside, however late it arrives: the venue position our BUY explains (by order id) is ours', () => {
    const { desk, clock } = deskOn();
    const portfolio = new Portfolio(0);
    const sync = new AccountSync(desk, portfolio, () => 500_000, { source: { read: () => Promise.resolve(reading(0)) }, intervalMs: 1_000 });
    const fills = new FillBook(desk, portfolio);
    sync.unbooked = () => fills.unbookedBuys();
    sync.apply(reading(100 * M));
    const record = desk.tracker.add(request({ size: 10 * M }), T0);
    desk.tracker.setOrderId(record, 'o1', T0);
    desk.tracker.transition(record, 'LIVE', T0);
    // the venue matched it; a minute of readings shows the 10 shares before the fill reaches us
    for (let i = 0; i < 60; i++) {
      clock.advanceBy(1_000);
      sync.apply(reading(96 * M, { [YES]: 10 * M }));
    }
    expect(sync.outsideSize(YES)).toBe(0);
    // the venue says the order is done (a sync) before its fill comes: still explained
    desk.tracker.setFilled(record, 10 * M, clock.now());
    desk.tracker.transition(record, 'FILLED', clock.now());
    for (let i = 0; i < 10; i++) {
      clock.advanceBy(1_000);
      sync.apply(reading(96 * M, { [YES]: 10 * M }));
    }
    expect(sync.outsideSize(YES)).toBe(0);
    fills.onVenueFill({ tradeId: 't1', orderId: 'o1', tokenId: YES, side: 'BUY', price: 400_000, size: 10 * M, fee: 0, liquidity: 'TAKER', status: 'CONFIRMED', tsEvent: T0 + 500, tsInit: clock.now() });
    expect(fills.unbookedBuys().get(YES)).toBeUndefined();
    // 5 shares beyond every order of ours: outside, once the readings have shown it long enough
    for (let i = 0; i < 10; i++) {
      clock.advanceBy(1_000);
      sync.apply(reading(96 * M, { [YES]: 15 * M }));
    }
    expect(sync.outsideSize(YES)).toBe(5 * M);
  });

  it('paper and backtest: the configured cash is written once when the run begins, not on a resume', async () => {
    const notes: AccountNote[] = [];
    const persistence = { account: (note: AccountNote) => notes.push(note), transaction: <T>(fn: () => T) => fn() } as unknown as EnginePersistence;
    const { desk } = deskOn({ persistence });
    const sync = new AccountSync(desk, new Portfolio(500 * M), () => undefined, undefined);
    expect(sync.source).toBe('configured');
    await sync.load(true);
    expect(notes).toEqual([]);
    await sync.load(false);
    expect(notes).toEqual([{ at: T0, source: 'configured', cash: 500 * M, marks: {}, outside: [] }]);
  });

  it('reserves what open BUY orders promise, as ctx.balance() deducts it', () => {
    const { desk } = setUp();
    desk.tracker.add(request({ side: 'BUY', price: 400_000, size: 10 * M }), T0);
    desk.tracker.add(request({ side: 'SELL', price: 600_000, size: 10 * M }), T0);
    expect(reservedByOpenBuys(desk.tracker.open())).toBe(4 * M);
  });
});

describe('the outside gate', () => {
  const risk = new RiskEngine({ checks: [], limits: {} });
  const state = (own: number, outside: number | undefined, openSell = 0): RiskState => ({
    now: T0,
    markets: new Map(),
    openOrders: openSell > 0 ? [{ clientOrderId: 'o', strategyId: 's', tokenId: YES, conditionId: COND, side: 'SELL', price: 600_000, remaining: openSell }] : [],
    positions: new Map([[YES, own]]),
    recentOrderTimes: [],
    consecutiveRejects: 0,
    dailyPnl: 0,
    heartbeat: 'healthy',
    manualHalt: false,
    reconciling: new Set(),
    outside: outside === undefined ? undefined : new Map([[YES, outside]]),
  });
  const sell = (size: number) => request({ side: 'SELL', price: 500_000, size });

  it('lets the bot sell its own shares, never those held outside it', () => {
    expect(risk.check(sell(5 * M), state(5 * M, 10 * M))).toBeUndefined();
    const denied = risk.check(sell(6 * M), state(5 * M, 10 * M));
    expect(denied).toMatchObject({ code: 'POSITION_LIMIT', check: 'outside' });
    expect(denied?.message).toMatch(/held outside the bot \(bot holds 5, offers 0, outside 10\)/);
    // what its open SELL orders offer counts
    expect(risk.check(sell(3 * M), state(5 * M, 10 * M, 3 * M))).toMatchObject({ check: 'outside' });
    // in a batch as well
    expect(risk.checkBatch([sell(3 * M), sell(3 * M)], state(5 * M, 10 * M))).toEqual([undefined, expect.objectContaining({ check: 'outside' })]);
  });

  it('does nothing without shares outside, nor to a BUY', () => {
    expect(risk.check(sell(6 * M), state(5 * M, undefined))).toBeUndefined();
    expect(risk.check(request({ side: 'BUY', price: 500_000, size: 50 * M }), state(0, 10 * M))).toBeUndefined();
  });
});
