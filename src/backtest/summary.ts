import { basename } from 'node:path';
import type { RunConfig } from '../config/run-config.ts';
import type { TrackedToken } from '../data/market-cache.ts';
import type { RecordedMarket } from '../data/recording/format.ts';
import type { EngineSummary } from '../engine/engine-summary.ts';
import type { MarketSettlement } from '../engine/ports.ts';
import type { MarketRewardsSummary } from '../engine/reward-accrual.ts';
import type { SimulatedExecutionStats } from '../sim/edge/simulated-execution.ts';
import { Dec } from '../core/fixed.ts';
import { money, type BacktestMetrics } from './metrics.ts';
import { describeBasis, formatSpan } from './performance.ts';
import type { BacktestData } from './backtest-data.ts';

export const SUMMARY_FORMAT = 'clobot-backtest-summary';
export const SUMMARY_VERSION = 1;
/** Ratios (return, Sharpe, drawdown share, win rate) are rounded half-even to this many decimals. */
export const RATIO_DECIMALS = 6;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * What `summary.json` holds. Money is exact decimal strings, ratios decimal strings of
 * RATIO_DECIMALS places (null where undefined), times are virtual (the data's), never the wall
 * clock, and every key comes in a fixed order: the same inputs give the same bytes.
 */
export interface BacktestSummary {
  readonly format: typeof SUMMARY_FORMAT;
  readonly version: number;
  readonly name: string;
  readonly data: {
    readonly file: string;
    /** Every file replayed, in the order given (one for a single file; see src/backtest/data-set.ts). */
    readonly files: readonly string[];
    readonly source: string;
    readonly from: string | null;
    readonly to: string | null;
    readonly events: number;
    readonly outOfOrder: number;
    readonly markets: number;
    readonly tokens: number;
    /** True when the run was stopped (Ctrl-C) before the end of its data: the figures cover `from` to `to` only. */
    readonly partial: boolean;
  };
  /**
   * Each strategy with its own figures (its fills only): fills, turnover, fees and PnL add up to
   * the run's (`metrics`); realized and unrealized follow its own average cost.
   */
  readonly strategies: readonly {
    readonly id: string;
    readonly module: string;
    readonly params: Json;
    readonly fills: number;
    readonly turnover: string;
    readonly fees: string;
    readonly pnl: { readonly realized: string; readonly unrealized: string; readonly total: string };
    /** The strategy's own figures (`ctx.metric(name, value)`), each its latest value, names sorted. */
    readonly metrics: Readonly<Record<string, number>>;
  }[];
  readonly settings: {
    readonly balance: string;
    readonly entryLatencyMs: number;
    readonly responseLatencyMs: number;
    readonly queueModel: string;
    readonly fees: { readonly source: string; readonly makerBps: string | null; readonly takerBps: string | null };
    readonly equityIntervalMs: number;
    readonly risk: { readonly checks: readonly string[] };
  };
  readonly metrics: {
    readonly events: number;
    readonly fills: number;
    readonly makerFills: number;
    readonly takerFills: number;
    readonly pnl: { readonly realized: string; readonly unrealized: string; readonly total: string };
    /**
     * Complete sets held at the end (YES+NO pairs, the YES of every outcome of a non-augmented
     * neg-risk event): how many, what they pay (1 a set; `unrealized` and `endingEquity` value
     * them so) and the same shares at their marks (what mark-to-mid alone would have said).
     */
    readonly completeSets: { readonly sets: string; readonly value: string; readonly markValue: string };
    readonly fees: string;
    readonly return: string;
    /** Annualised Sharpe ratio on `ratios`' basis; null with `ratios.note` saying why. */
    readonly sharpe: string | null;
    readonly sortino: string | null;
    readonly calmar: string | null;
    /** The basis of Sharpe, Sortino and Calmar (src/backtest/performance.ts): returns of the equity every `intervalMs`. */
    readonly ratios: {
      readonly basis: string;
      readonly intervalMs: number;
      readonly returns: number;
      readonly minReturns: number;
      /** Why each ratio is not given (null where it is). */
      readonly notes: { readonly sharpe: string | null; readonly sortino: string | null; readonly calmar: string | null };
    };
    readonly maxDrawdown: { readonly amount: string; readonly fraction: string };
    /** Share of the run's seconds at which we held a position. */
    readonly exposure: string;
    /** Orders with at least one fill over orders submitted; null without orders. */
    readonly fillRatio: string | null;
    readonly filledOrders: number;
    /**
     * Mark-outs of our fills (adverse selection): per horizon, the fills marked, Σ (mark later −
     * fill price) × size signed for our side in collateral, and that per share.
     */
    readonly markouts: readonly { readonly horizon: string; readonly fills: number; readonly pnl: string; readonly perShare: string | null }[];
    readonly turnover: string;
    readonly winRate: string | null;
    readonly closingFills: number;
    readonly winningFills: number;
    readonly startingBalance: string;
    readonly endingEquity: string;
  };
  readonly orders: {
    readonly submitted: number;
    readonly accepted: number;
    readonly rejected: number;
    readonly rejectedByReason: Readonly<Record<string, number>>;
    readonly denied: number;
    readonly deniedByCode: Readonly<Record<string, number>>;
    readonly canceled: number;
    readonly expired: number;
    readonly openAtEnd: number;
    readonly faults: number;
  };
  /** Strategy faults the backtest went on past (`backtest.keepGoing`); without it the first one stops it. */
  readonly faults: {
    readonly count: number;
    /** The first: which strategy, its message and when (virtual time); its stack is in the result's engine summary. */
    readonly first: { readonly strategyId: string; readonly message: string; readonly at: string } | null;
  };
  readonly markets: readonly {
    readonly conditionId: string;
    readonly question: string;
    readonly fills: number;
    readonly volume: string;
    readonly fees: string;
    readonly pnl: { readonly realized: string; readonly unrealized: string; readonly total: string };
  }[];
  /** Markets that resolved in the data, with what their settlement paid and realized (virtual time). */
  readonly settled: readonly {
    readonly conditionId: string;
    readonly winner: string | null;
    readonly at: string;
    readonly proceeds: string;
    readonly realizedPnl: string;
  }[];
  /**
   * Liquidity rewards accrued against the recorded books (docs/rewards.md), USDC with 6 decimals:
   * apart from trading PnL (not in `metrics.pnl`, equity, return or any ratio).
   */
  readonly rewards: {
    readonly sampleMs: number;
    readonly samples: number;
    readonly total: string;
    readonly byStrategy: Readonly<Record<string, string>>;
    readonly markets: readonly ({ readonly conditionId: string } & MarketRewardsSummary)[];
  };
}

/** A ratio of RATIO_DECIMALS places; a value that rounds to zero is `0.000000`, never `-0.000000`. */
export function ratio(d: Dec | undefined): string | null {
  if (d === undefined) return null;
  const text = d.toFixed(RATIO_DECIMALS);
  return /^-0\.0*$/.test(text) ? text.slice(1) : text;
}

function sorted(record: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key]!;
  return out;
}

/** Plain JSON of strategy params, keys sorted (zod output order is stable, but sorting costs nothing). */
function plain(value: unknown): Json {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value).sort()) out[key] = plain((value as Record<string, unknown>)[key]);
    return out;
  }
  // what is left: a symbol or a function
  return (value as symbol | (() => unknown)).toString();
}

export function buildSummary(input: {
  config: RunConfig;
  data: BacktestData;
  markets: readonly RecordedMarket[];
  tokens: readonly TrackedToken[];
  strategies: readonly { id: string; module: string; params: unknown }[];
  replay: { events: number; firstTsInit: number | undefined; lastTsInit: number | undefined; outOfOrder: number; start: number; end: number };
  metrics: BacktestMetrics;
  engine: EngineSummary;
  execution: SimulatedExecutionStats;
  settlements?: readonly MarketSettlement[];
  /** Each strategy's own figures (`ctx.metric`), by strategy id. */
  strategyMetrics?: ReadonlyMap<string, Readonly<Record<string, number>>>;
  /** Stopped before the end of the data. */
  partial?: boolean;
}): BacktestSummary {
  const { config, metrics: m, engine, execution, replay: r } = input;
  const p = m.performance;
  const bt = config.backtest;
  return {
    format: SUMMARY_FORMAT,
    version: SUMMARY_VERSION,
    name: config.name,
    data: {
      file: basename(input.data.name),
      files: (input.data.files ?? [input.data]).map((f) => basename(f.name)),
      source: input.data.header.source,
      from: r.firstTsInit === undefined ? null : new Date(r.firstTsInit).toISOString(),
      to: r.lastTsInit === undefined ? null : new Date(r.lastTsInit).toISOString(),
      events: r.events,
      outOfOrder: r.outOfOrder,
      markets: input.markets.length,
      tokens: input.tokens.length,
      partial: input.partial ?? false,
    },
    strategies: input.strategies.map((s) => {
      const f = m.strategies.find((row) => row.strategyId === s.id);
      return {
        id: s.id,
        module: s.module,
        params: plain(s.params),
        fills: f?.fills ?? 0,
        turnover: money(f?.turnover ?? 0),
        fees: money(f?.fees ?? 0),
        pnl: { realized: money(f?.realizedPnl ?? 0), unrealized: money(f?.unrealizedPnl ?? 0), total: money(f?.pnl ?? 0) },
        metrics: sorted(input.strategyMetrics?.get(s.id) ?? {}),
      };
    }),
    settings: {
      balance: money(bt.balance),
      entryLatencyMs: bt.entryLatencyMs,
      responseLatencyMs: bt.responseLatencyMs,
      queueModel: bt.queueModel,
      fees: {
        source: bt.feeSource,
        makerBps: bt.feeSource === 'config' ? bt.fees.makerBps.toString() : null,
        takerBps: bt.feeSource === 'config' ? bt.fees.takerBps.toString() : null,
      },
      equityIntervalMs: bt.equityIntervalMs,
      risk: { checks: [...config.risk.checks] },
    },
    metrics: {
      events: m.events,
      fills: m.fills,
      makerFills: m.makerFills,
      takerFills: m.takerFills,
      pnl: { realized: money(m.realized), unrealized: money(m.unrealized), total: money(m.totalPnl) },
      completeSets: { sets: engine.account.completeSets, value: engine.account.setValue, markValue: engine.account.setMarkValue },
      fees: money(m.fees),
      return: ratio(m.return)!,
      sharpe: ratio(p.sharpe),
      sortino: ratio(p.sortino),
      calmar: ratio(p.calmar),
      ratios: {
        basis: describeBasis(p.basis),
        intervalMs: p.basis.intervalMs,
        returns: p.basis.returns,
        minReturns: p.basis.minReturns,
        notes: { sharpe: p.reason ?? null, sortino: p.reason ?? p.sortinoReason ?? null, calmar: p.reason ?? p.calmarReason ?? null },
      },
      maxDrawdown: { amount: money(m.maxDrawdown.amount), fraction: ratio(m.maxDrawdown.fraction)! },
      exposure: ratio(m.exposure)!,
      fillRatio: engine.ordersSubmitted > 0 ? ratio(new Dec(m.filledOrders).div(engine.ordersSubmitted)) : null,
      filledOrders: m.filledOrders,
      markouts: m.markouts.map((row) => ({
        horizon: formatSpan(row.horizonMs),
        fills: row.fills,
        pnl: money(row.pnl),
        perShare: row.size > 0 ? ratio(new Dec(row.pnl).div(row.size)) : null,
      })),
      turnover: money(m.turnover),
      winRate: ratio(m.winRate),
      closingFills: m.closingFills,
      winningFills: m.winningFills,
      startingBalance: money(m.startingBalance),
      endingEquity: money(m.endingEquity),
    },
    orders: {
      submitted: engine.ordersSubmitted,
      accepted: engine.ordersAccepted,
      rejected: engine.ordersRejected,
      rejectedByReason: sorted(execution.rejected),
      denied: engine.ordersDeniedTotal,
      deniedByCode: sorted(engine.ordersDenied),
      canceled: engine.ordersCanceled,
      expired: execution.expired,
      openAtEnd: engine.openOrders,
      faults: engine.faults,
    },
    faults: {
      count: engine.faults,
      first: engine.firstFault ? { strategyId: engine.firstFault.strategyId, message: engine.firstFault.message, at: engine.firstFault.at } : null,
    },
    markets: m.markets.map((row) => ({
      conditionId: row.conditionId,
      question: row.question,
      fills: row.fills,
      volume: money(row.volume),
      fees: money(row.fees),
      pnl: { realized: money(row.realized), unrealized: money(row.unrealized), total: money(row.pnl) },
    })),
    settled: (input.settlements ?? []).map((s) => ({
      conditionId: s.conditionId,
      winner: s.winnerTokenId ?? null,
      at: new Date(s.at).toISOString(),
      proceeds: money(s.proceeds),
      realizedPnl: money(s.realizedPnl),
    })),
    rewards: rewardsSection(engine, config.execution.rewardSampleMs),
  };
}

/** The summary's `rewards`: the engine's accrual, markets in condition-id order (zeros when none pays rewards). */
function rewardsSection(engine: EngineSummary, sampleMs: number): BacktestSummary['rewards'] {
  const r = engine.rewards;
  if (r === undefined) return { sampleMs, samples: 0, total: '0.000000', byStrategy: {}, markets: [] };
  return {
    sampleMs: r.sampleMs,
    samples: r.samples,
    total: r.total,
    byStrategy: r.byStrategy,
    markets: Object.keys(r.byMarket)
      .sort()
      .map((conditionId) => ({ conditionId, ...r.byMarket[conditionId]! })),
  };
}

/** The bytes of `summary.json`: two-space JSON and a final newline. */
export function serializeSummary(summary: BacktestSummary): string {
  return JSON.stringify(summary, null, 2) + '\n';
}
