import { parseMicros, type Micros } from '../../src/core/fixed.ts';
import { MatchingEngine, type MatchingEngineOptions } from '../../src/sim/matching/matching-engine.ts';
import type { SimMarketConfig, SimOrderRequest, SubmitResult } from '../../src/sim/types.ts';

/** Exact micros from a decimal literal: m('0.55') = 550000. */
export function m(text: string): Micros {
  const v = parseMicros(text);
  if (Number.isNaN(v)) throw new Error(`bad decimal ${text}`);
  return v;
}

export const COND = '0x' + 'c1'.repeat(32);
export const YES = '1111';
export const NO = '2222';
export const T0 = 1_700_000_000_000;

export function marketConfig(over: Partial<SimMarketConfig> = {}): SimMarketConfig {
  return {
    conditionId: COND,
    tokenIds: [YES, NO],
    tickSize: m('0.01'),
    minOrderSize: m('5'),
    makerBaseFeeBps: 0,
    takerBaseFeeBps: 0,
    acceptingOrders: true,
    negRisk: false,
    ...over,
  };
}

export function newEngine(market: Partial<SimMarketConfig> = {}, options: MatchingEngineOptions = {}): MatchingEngine {
  const e = new MatchingEngine(options);
  e.addMarket(marketConfig(market));
  return e;
}

let counter = 0;

/** An order with defaults: GTC BUY YES 10 @ 0.5 by `alice`. Sizes and prices as decimal strings. */
export function order(
  fields: Partial<Omit<SimOrderRequest, 'price' | 'size'>> & { price?: string; size?: string } = {},
): SimOrderRequest {
  const { price, size, ...rest } = fields;
  const owner = rest.owner ?? 'alice';
  return {
    id: `0xorder${++counter}`,
    owner,
    address: rest.address ?? `addr-${owner}`,
    tokenId: YES,
    side: 'BUY',
    type: 'GTC',
    createdAt: T0,
    ...rest,
    price: m(price ?? '0.5'),
    size: m(size ?? '10'),
  };
}

/** Submits an order that the test's setup expects to be accepted; throws when it is not. */
export function place(e: MatchingEngine, o: SimOrderRequest, now: number): SubmitResult {
  const r = e.submit(o, now);
  if (r.status === 'REJECTED') throw new Error(`setup order ${o.id} rejected: ${r.errorMsg}`);
  return r;
}
