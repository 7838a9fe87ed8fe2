import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import type { FillEvent, MarketEvent, OrderSnapshot } from '../../src/core/events.ts';
import type { TrackedToken } from '../../src/data/market-cache.ts';
import { TradingEngine, type EngineRestore } from '../../src/engine/trading-engine.ts';
import { defineStrategy, type PositionSnapshot } from '../../src/strategy/api.ts';
import { COND, M, request, silent, simulatedEdge, T0, YES } from './parts.ts';

const rules = { conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0, acceptingOrders: true };
const token: TrackedToken = { tokenId: YES, conditionId: COND, outcome: 'Yes', outcomeIndex: 0, complementTokenId: undefined, question: 'q', negRiskMarketId: undefined, rules };

function filled(strategyId: string, tradeId: string, price: number, size: number, ref?: string) {
  const req = request({ strategyId, price, size, ref, group: ref === undefined ? undefined : 'g' });
  const fill: FillEvent = { type: 'OrderFilled', clientOrderId: req.clientOrderId, orderId: `0x${tradeId}`, tradeId, tokenId: YES, side: 'BUY', price, size, fee: 1_000, liquidity: 'TAKER', confirmed: true, tsEvent: T0, tsInit: T0 };
  return { order: { request: req, orderId: `0x${tradeId}`, status: 'FILLED', filled: size, updatedAt: T0 }, fill };
}

describe('a restarted run', () => {
  it("books each restored fill for its order's strategy, and finds a restored order by its ref", () => {
    const a = filled('a', 't1', 400_000, 10 * M, 'a-entry');
    const b = filled('b', 't2', 600_000, 5 * M);
    const restore: EngineRestore = { orders: [a.order, b.order], fills: [a.fill, b.fill] };
    const clock = new SimulatedClock(T0 + 1_000);
    const seen: { position?: PositionSnapshot; order?: OrderSnapshot } = {};
    const engine = new TradingEngine({
      clock,
      execution: simulatedEdge(clock),
      marketEvents$: new Subject<MarketEvent>(),
      tokens: [token],
      strategies: [
        {
          id: 'a',
          params: {},
          tokenIds: [YES],
          definition: defineStrategy({
            name: 'a',
            onStart({ ctx }) {
              seen.position = ctx.position(YES);
              seen.order = ctx.order('a-entry');
            },
          }),
        },
        { id: 'b', params: {}, tokenIds: [YES], definition: defineStrategy({ name: 'b' }) },
      ],
      risk: { limits: {} },
      settings: { maxBatchWaitMs: 10, maxBatchSize: 15, quoteTolerance: { priceTicks: 0, sizeShare: 0.1 }, reconcileDelayMs: 500, syncIntervalMs: 0, maxInFlightBatches: 4 },
      startingBalance: 1_000 * M,
      runId: 'feedf00d',
      log: silent,
      restore,
    });
    engine.start();
    expect(seen.position).toMatchObject({ size: 10 * M, avgPrice: 400_000 });
    expect(seen.order).toMatchObject({ ref: 'a-entry', group: 'g', status: 'FILLED', strategyId: 'a' });
    expect(engine.ledger.position('b', YES)).toMatchObject({ size: 5 * M, avgPrice: 600_000 });
    expect(engine.portfolio.position(YES).size).toBe(15 * M);
    const byStrategy = engine.summary().byStrategy;
    expect(Object.entries(byStrategy).map(([id, f]) => [id, f.fills, f.fees, f.turnover])).toEqual([
      ['a', 1, '0.001', '4'],
      ['b', 1, '0.001', '3'],
    ]);
  });
});
