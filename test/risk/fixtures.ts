import { parseMicros, type Micros } from '../../src/core/fixed.ts';
import type { OrderRequest } from '../../src/core/intents.ts';
import { expect, it } from 'vitest';
import type {
  CheckName,
  DenyCode,
  RiskCheck,
  RiskLimits,
  RiskMarketView,
  RiskOpenOrder,
  RiskState,
} from '../../src/risk/types.ts';

/** Shared test data: one binary market (Y1/N1 in condition C1) and one neg-risk event (E1: A/B/C yes tokens). */

export const NOW = 1_700_000_000_000;

/** Exact micros from a decimal string; throws on text parseMicros refuses. */
export function m(text: string): Micros {
  const v = parseMicros(text);
  if (Number.isNaN(v)) throw new Error(`bad micros ${text}`);
  return v;
}

export function view(over: Partial<RiskMarketView> = {}): RiskMarketView {
  return {
    tokenId: 'Y1',
    conditionId: '0xc1',
    outcomeIndex: 0,
    complementTokenId: 'N1',
    tickSize: m('0.01'),
    minOrderSize: m('5'),
    acceptingOrders: true,
    bestBid: m('0.49'),
    bestAsk: m('0.51'),
    mid: m('0.5'),
    bookTsInit: NOW - 100,
    ...over,
  };
}

export const Y1 = view();
export const N1 = view({ tokenId: 'N1', outcomeIndex: 1, complementTokenId: 'Y1' });
/** Three markets of neg-risk event E1 (their YES tokens) and one NO token of the first. */
export const EA = view({ tokenId: 'EA', conditionId: '0xea', complementTokenId: 'EA-no', negRiskMarketId: 'E1', mid: m('0.2') });
export const EB = view({ tokenId: 'EB', conditionId: '0xeb', complementTokenId: 'EB-no', negRiskMarketId: 'E1', mid: m('0.3') });
export const EC = view({ tokenId: 'EC', conditionId: '0xec', complementTokenId: 'EC-no', negRiskMarketId: 'E1', mid: m('0.4') });
export const EA_NO = view({ tokenId: 'EA-no', conditionId: '0xea', outcomeIndex: 1, complementTokenId: 'EA', negRiskMarketId: 'E1', mid: m('0.8') });
/** A market of another event. */
export const FX = view({ tokenId: 'FX', conditionId: '0xf0', complementTokenId: undefined, negRiskMarketId: 'E2', mid: m('0.5') });

export function markets(...views: RiskMarketView[]): ReadonlyMap<string, RiskMarketView> {
  return new Map(views.map((v) => [v.tokenId, v]));
}

export function state(over: Partial<RiskState> = {}): RiskState {
  return {
    now: NOW,
    markets: markets(Y1, N1, EA, EB, EC, EA_NO, FX),
    openOrders: [],
    positions: new Map(),
    recentOrderTimes: [],
    consecutiveRejects: 0,
    dailyPnl: 0,
    heartbeat: 'healthy',
    manualHalt: false,
    reconciling: new Set(),
    ...over,
  };
}

let seq = 0;

export function order(over: Partial<OrderRequest> = {}): OrderRequest {
  const tokenId = over.tokenId ?? 'Y1';
  const conditionId = over.conditionId ?? (state().markets.get(tokenId)?.conditionId ?? '0xunknown');
  return {
    kind: 'place',
    strategyId: 's1',
    clientOrderId: `c${++seq}`,
    createdAt: NOW,
    side: 'BUY',
    price: m('0.5'),
    size: m('10'),
    ...over,
    tokenId,
    conditionId,
  };
}

export function resting(over: Partial<RiskOpenOrder> = {}): RiskOpenOrder {
  const tokenId = over.tokenId ?? 'Y1';
  return {
    clientOrderId: `r${++seq}`,
    strategyId: 's1',
    conditionId: state().markets.get(tokenId)?.conditionId ?? '0xunknown',
    side: 'BUY',
    price: m('0.5'),
    remaining: m('10'),
    ...over,
    tokenId,
  };
}

/** One row of a check's table: the order, state and limits it runs on and the expected answer. */
export interface Row {
  readonly name: string;
  readonly req?: Partial<OrderRequest>;
  readonly state?: Partial<RiskState>;
  readonly limits?: RiskLimits;
  /** undefined = allowed. */
  readonly code: DenyCode | undefined;
  /** Exact message, or a pattern it must match. */
  readonly message?: string | RegExp;
}

/** Runs a table against one check and asserts code, check name and message of each row. */
export function runTable(check: RiskCheck, name: CheckName, rows: readonly Row[]): void {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_label, row) => {
    const denial = check(order(row.req), state(row.state), row.limits ?? {});
    if (row.code === undefined) {
      expect(denial).toBeUndefined();
      return;
    }
    expect(denial?.code).toBe(row.code);
    expect(denial?.check).toBe(name);
    if (typeof row.message === 'string') expect(denial?.message).toBe(row.message);
    else if (row.message !== undefined) expect(denial?.message).toMatch(row.message);
  });
}
