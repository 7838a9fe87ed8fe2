import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/app/run-backtest.ts';
import type { BacktestData } from '../../src/backtest/backtest-data.ts';
import { serializeSummary } from '../../src/backtest/summary.ts';
import { ERR_FOK_UNFILLED } from '../../src/sim/venue-messages.ts';
import { defineStrategy, type StrategyDefinition } from '../../src/strategy/api.ts';
import type { OrderIntent } from '../../src/core/intents.ts';
import { backtestConfig, bookEvent, COND, header, m, T0, TempDir, tradeEvent, YES } from './helpers.ts';

const tmp = new TempDir();
afterAll(() => tmp.remove());

const CONFIG = `
mode: backtest
name: handmade
data:
  markets: { conditionIds: ["${COND}"] }
strategies:
  - id: hand
    module: ./hand.ts
execution:
  maxBatchWaitMs: 5
backtest:
  balance: 10000
  entryLatencyMs: 10
  responseLatencyMs: 10
  queueModel: conservative
  fees: { makerBps: 20, takerBps: 100 }
  equityIntervalMs: 1000
`;

/**
 * The recording, one event a second. Our orders (worked out by hand below):
 *   t0      book: bids 0.50×300 0.49×200 | asks 0.52×40 0.53×50 0.55×100
 *           A: BUY GTC post-only 0.50×100 rests behind 300; B: BUY FAK 0.53×60 takes 40@0.52, 20@0.53
 *   t0+1s   book: bid 0.50 shrinks to 250 (cancels: the queue ahead becomes 250); asks as before
 *           D: BUY FOK 0.53×40: 0.52 is used up by B, 0.53 has 30 left -> rejected (no double use)
 *   t0+2s   trade: SELL 200 at 0.50 eats 200 of the queue ahead (50 left)
 *   t0+3s   book: bid 0.50×50 (the printed 200 explains the shrink); ask 0.51×30 appears
 *   t0+4s   trade: SELL 80 at 0.50: 50 more of the queue, then 30 fill A (maker)
 *   t0+5s   book: bids 0.48×100 | asks 0.49×70 0.50×20 ...: the asks cross A: 70 fill A at 0.50
 *           on A's last fill the strategy sells 100 FAK at 0.48 -> 100@0.48 (taker)
 *   t0+6s   book: bids 0.60×50 0.59×100 | asks 0.61×100: SELL FAK 0.59×40 -> 40@0.60 (taker)
 */
function events() {
  return [
    bookEvent(T0, [['0.50', '300'], ['0.49', '200']], [['0.52', '40'], ['0.53', '50'], ['0.55', '100']]),
    bookEvent(T0 + 1000, [['0.50', '250'], ['0.49', '200']], [['0.52', '40'], ['0.53', '50'], ['0.55', '100']]),
    tradeEvent(T0 + 2000, 'SELL', '0.50', '200'),
    bookEvent(T0 + 3000, [['0.50', '50'], ['0.49', '200']], [['0.51', '30'], ['0.52', '40'], ['0.53', '50'], ['0.55', '100']]),
    tradeEvent(T0 + 4000, 'SELL', '0.50', '80'),
    bookEvent(T0 + 5000, [['0.48', '100']], [['0.49', '70'], ['0.50', '20'], ['0.51', '30'], ['0.52', '40'], ['0.53', '50'], ['0.55', '100']]),
    bookEvent(T0 + 6000, [['0.60', '50'], ['0.59', '100']], [['0.61', '100']]),
  ];
}

function handStrategy(): StrategyDefinition {
  let started = false;
  let triedFok = false;
  let soldLow = false;
  let soldHigh = false;
  return defineStrategy({
    name: 'hand',
    onBook({ market, book }): OrderIntent[] | undefined {
      if (!started) {
        started = true;
        return [
          { kind: 'place', tokenId: YES, side: 'BUY', price: m('0.50'), size: m('100'), orderType: 'GTC', postOnly: true, tag: 'A' },
          { kind: 'place', tokenId: YES, side: 'BUY', price: m('0.53'), size: m('60'), orderType: 'FAK', tag: 'B' },
        ];
      }
      if (book.tsInit === T0 + 1000 && !triedFok) {
        triedFok = true;
        return [{ kind: 'place', tokenId: YES, side: 'BUY', price: m('0.53'), size: m('40'), orderType: 'FOK', tag: 'D' }];
      }
      if (!soldHigh && market.bestBid !== undefined && market.bestBid >= m('0.59')) {
        soldHigh = true;
        return [{ kind: 'place', tokenId: YES, side: 'SELL', price: m('0.59'), size: m('40'), orderType: 'FAK', tag: 'E' }];
      }
      return undefined;
    },
    onFill({ ctx, fill }) {
      if (!soldLow && fill.liquidity === 'MAKER' && ctx.position(YES).size === m('160')) {
        soldLow = true;
        return { kind: 'place', tokenId: YES, side: 'SELL', price: m('0.48'), size: m('100'), orderType: 'FAK', tag: 'C' };
      }
      return undefined;
    },
  });
}

function data(): BacktestData {
  return { name: 'hand.jsonl', header: header(), events: events };
}

describe('runBacktest on a hand-made recording', async () => {
  const config = backtestConfig(tmp, CONFIG);
  const result = await runBacktest({ config, data: data(), definitions: { hand: handStrategy() } });
  const s = result.summary;

  it('fills exactly as worked out by hand under the queue, latency and fee models', () => {
    expect(result.fills.map((f) => [f.t - T0, f.side, f.price, f.size, f.fee, f.liquidity])).toEqual([
      // B at t0 + 5 (batch) + 10 (entry) + 10 (response); taker fee 1% × min(p, 1-p) × size
      [25, 'BUY', m('0.52'), m('40'), m('0.192'), 'TAKER'],
      [25, 'BUY', m('0.53'), m('20'), m('0.094'), 'TAKER'],
      // A, maker fee 0.2% × 0.5 × size, reported 10 ms after the print / the crossing book
      [4010, 'BUY', m('0.50'), m('30'), m('0.03'), 'MAKER'],
      [5010, 'BUY', m('0.50'), m('70'), m('0.07'), 'MAKER'],
      // C: sent on A's last fill at 5010, batched 5, entry 10, response 10
      [5035, 'SELL', m('0.48'), m('100'), m('0.48'), 'TAKER'],
      // E: sent on the book at 6000, at the better bid 0.60
      [6025, 'SELL', m('0.60'), m('40'), m('0.16'), 'TAKER'],
    ]);
    expect(s.orders.rejectedByReason).toEqual({ [ERR_FOK_UNFILLED]: 1 });
    expect(s.orders).toMatchObject({ submitted: 5, accepted: 4, rejected: 1, openAtEnd: 0 });
  });

  it('books PnL, fees, turnover and win rate exactly', () => {
    // cost 81.4 for 160; sells at avg cost 0.50875: 100@0.48 realizes -2.875, 40@0.60 realizes 3.65
    // 20 left, marked at the last mid 0.605: 12.1 - 10.175 = 1.925
    expect(s.metrics.pnl).toEqual({ realized: '0.775', unrealized: '1.925', total: '1.674' });
    expect(s.metrics.fees).toBe('1.026');
    expect(s.metrics.turnover).toBe('153.4');
    expect(s.metrics).toMatchObject({ events: 7, fills: 6, makerFills: 2, takerFills: 4, closingFills: 2, winningFills: 1, winRate: '0.500000' });
    expect(s.metrics.return).toBe('0.000167');
    expect(s.metrics.endingEquity).toBe('10001.674');
    expect(s.markets).toEqual([
      { conditionId: COND, question: 'Will it rain?', fills: 6, volume: '153.4', fees: '1.026', pnl: { realized: '0.775', unrealized: '1.925', total: '1.674' } },
    ]);
  });

  it('samples the equity curve on the grid and measures drawdown from it; 7 returns are too few for a Sharpe', () => {
    const curve = result.curve;
    expect(curve.t.map((t) => t - T0)).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 6025]);
    // each point is taken before that second's event
    expect(curve.equity).toEqual(['10000', '9998.914', '9998.914', '9998.914', '9998.614', '9998.734', '9994.834', '10001.674'].map(m));
    expect(s.metrics.maxDrawdown).toEqual({ amount: '5.166', fraction: '0.000517' });
    expect(s.metrics.sharpe).toBeNull();
    expect(s.metrics.ratios).toEqual({
      basis: '7 returns of 1s',
      intervalMs: 1000,
      returns: 7,
      minReturns: 30,
      notes: {
        sharpe: 'only 7 returns of 1s; a ratio needs 30 or more, that is 30s of data at this basis',
        sortino: 'only 7 returns of 1s; a ratio needs 30 or more, that is 30s of data at this basis',
        calmar: 'only 7 returns of 1s; a ratio needs 30 or more, that is 30s of data at this basis',
      },
    });
  });

  it('gives byte-identical summaries for the same inputs', async () => {
    const again = await runBacktest({ config, data: data(), definitions: { hand: handStrategy() } });
    expect(serializeSummary(again.summary)).toBe(serializeSummary(s));
    expect(serializeSummary(s)).not.toMatch(/"(?:startedAt|elapsed|wall)/);
  });
});

describe('runBacktest: the stop at the end', () => {
  it('finishes when orders are still in flight at the end (drain, then cancel-all, each a round trip)', async () => {
    // a strategy that answers every acceptance with a new resting order: a post is always in
    // flight, also when the replay ends and the engine stops (one clock step used to leave the
    // stop's cancel-all unanswered, and the run never returned)
    let n = 0;
    const chaser = defineStrategy({
      name: 'chaser',
      onBook({ book }): OrderIntent[] | undefined {
        if (book.tsInit !== T0) return undefined;
        return [{ kind: 'place', tokenId: YES, side: 'BUY', price: m('0.40'), size: m('5'), tag: `c${n++}` }];
      },
      onOrderEvent({ event }): OrderIntent[] | undefined {
        if (event.type !== 'OrderAccepted') return undefined;
        return [{ kind: 'place', tokenId: YES, side: 'BUY', price: m('0.40'), size: m('5'), tag: `c${n++}` }];
      },
    });
    const config = backtestConfig(tmp, `${CONFIG}risk:\n  maxOrdersPerSecond: 10000\n  maxOpenOrders: 10000\n`);
    // the chain of posts runs every 25 ms from t0 (batch 5 + entry 10 + response 10); the data ends
    // 10 ms off that beat, so a post is in flight when the engine stops
    const book = (t: number) => bookEvent(t, [['0.50', '300']], [['0.52', '40']]);
    const result = await runBacktest({ config, data: { name: 'chase.jsonl', header: header(), events: () => [book(T0), book(T0 + 1010)] }, definitions: { hand: chaser } });
    expect(result.engine.ordersAccepted).toBeGreaterThan(40);
    expect(result.engine.ordersDeniedTotal).toBe(0);
    expect(result.summary.orders.openAtEnd).toBe(0); // cancelled at the stop
  });
});
