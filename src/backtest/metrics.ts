import { Dec, formatMicros, type Micros } from '../core/fixed.ts';
import type { TokenId } from '../core/types.ts';
import type { TrackedToken } from '../data/market-cache.ts';
import { notional } from '../core/money.ts';
import { Portfolio } from '../portfolio/portfolio.ts';
import type { FillEvent } from '../core/events.ts';
import type { StrategyFigures } from '../portfolio/strategy-ledger.ts';
import { MarkoutTracker, type MarkoutRow } from './markouts.ts';
import { performance, type Performance } from './performance.ts';

/** Spacing of the equity trail drawn in the report (thinned past PRICE_TRAIL_POINTS like a price trail). */
export const EQUITY_TRAIL_MS = 1_000;

/** One of our fills as the metrics and the report keep it. */
export interface FillRecord {
  readonly t: number;
  readonly strategyId: string;
  readonly tokenId: TokenId;
  readonly side: 'BUY' | 'SELL';
  readonly price: Micros;
  readonly size: Micros;
  readonly fee: Micros;
  readonly liquidity: 'MAKER' | 'TAKER';
}

/** The equity curve on the fixed virtual-time grid (the returns' basis), and a denser trail to draw. */
export interface EquityCurve {
  readonly intervalMs: number;
  readonly t: readonly number[];
  readonly equity: readonly Micros[];
  /** Equity every EQUITY_TRAIL_MS of virtual time (thinned on long runs), for the report's charts. */
  readonly trail: PriceTrail;
  /** Each tracked token's mark (mid) over the run, for the report's price charts. */
  readonly prices: ReadonlyMap<TokenId, PriceTrail>;
}

/** Points kept per price trail at most; past that the spacing doubles and the trail is thinned. */
export const PRICE_TRAIL_POINTS = 4_000;

/**
 * A token's mark over time in constant memory: one point per `spacingMs` bucket (the newest mark
 * in it); when the trail passes PRICE_TRAIL_POINTS the spacing doubles and the trail is thinned
 * to the new buckets. Starts at one point a second.
 */
export class PriceTrail {
  readonly t: number[] = [];
  readonly v: Micros[] = [];
  spacingMs = 1_000;

  add(t: number, v: Micros): void {
    const n = this.t.length;
    if (n > 0 && Math.floor(this.t[n - 1]! / this.spacingMs) === Math.floor(t / this.spacingMs)) {
      this.t[n - 1] = t;
      this.v[n - 1] = v;
      return;
    }
    this.t.push(t);
    this.v.push(v);
    if (this.t.length > PRICE_TRAIL_POINTS) this.#thin();
  }

  #thin(): void {
    this.spacingMs *= 2;
    let k = 0;
    for (let i = 0; i < this.t.length; i++) {
      if (k > 0 && Math.floor(this.t[k - 1]! / this.spacingMs) === Math.floor(this.t[i]! / this.spacingMs)) k--;
      this.t[k] = this.t[i]!;
      this.v[k] = this.v[i]!;
      k++;
    }
    this.t.length = k;
    this.v.length = k;
  }
}

export interface MarketRow {
  readonly conditionId: string;
  readonly question: string;
  readonly fills: number;
  /** Σ price × size of the fills. */
  readonly volume: Micros;
  readonly fees: Micros;
  readonly realized: Micros;
  readonly unrealized: Micros;
  /** realized + unrealized − fees. */
  readonly pnl: Micros;
}

export interface BacktestMetrics {
  readonly events: number;
  readonly fills: number;
  readonly makerFills: number;
  readonly takerFills: number;
  readonly realized: Micros;
  readonly unrealized: Micros;
  readonly fees: Micros;
  /** realized + unrealized − fees. */
  readonly totalPnl: Micros;
  readonly startingBalance: Micros;
  readonly endingEquity: Micros;
  /** totalPnl / startingBalance. */
  readonly return: Dec;
  /** Sharpe, Sortino and Calmar on their stated basis, or why not (src/backtest/performance.ts). */
  readonly performance: Performance;
  readonly maxDrawdown: { readonly amount: Micros; readonly fraction: Dec };
  /** Virtual time the run covered (first to last point of the curve), ms. */
  readonly spanMs: number;
  /** Share of the equity trail's points (one a second) at which we held a position. */
  readonly exposure: Dec;
  /** Orders with at least one fill (by client order id). */
  readonly filledOrders: number;
  /** Mark-outs of our fills at 1 s, 10 s and 60 s (adverse selection). */
  readonly markouts: readonly MarkoutRow[];
  readonly turnover: Micros;
  /** Closing fills (sells out of a long position) and the ones that made money net of their fee. */
  readonly closingFills: number;
  readonly winningFills: number;
  /** winningFills / closingFills; undefined without closing fills. */
  readonly winRate: Dec | undefined;
  readonly markets: readonly MarketRow[];
  /** Each strategy's own fills, turnover, fees and PnL at the end, adding up to the run's (StrategyLedger.figures). */
  readonly strategies: readonly StrategyFigures[];
}

/**
 * Collects what the metrics need while a backtest runs: every fill (per market, exactly, through
 * one Portfolio per market) and the equity curve sampled on a fixed grid of virtual time.
 */
export class MetricsRecorder {
  readonly fills: FillRecord[] = [];
  readonly #tokenMarket = new Map<TokenId, string>();
  readonly #markets = new Map<string, { question: string; portfolio: Portfolio; fills: number; volume: Micros }>();
  readonly #t: number[] = [];
  readonly #equity: Micros[] = [];
  readonly #prices = new Map<TokenId, PriceTrail>();
  readonly #intervalMs: number;
  readonly #trail = new PriceTrail();
  readonly #markouts = new MarkoutTracker();
  readonly #filledOrders = new Set<string>();
  #traced = 0;
  #exposed = 0;
  #closing = 0;
  #winning = 0;
  #maker = 0;
  #taker = 0;

  constructor(options: { tokens: readonly TrackedToken[]; intervalMs: number }) {
    this.#intervalMs = options.intervalMs;
    this.addTokens(options.tokens);
  }

  /** Tokens of markets that joined the replay (a recording's `market` event). */
  addTokens(tokens: readonly TrackedToken[]): void {
    for (const t of tokens) {
      if (this.#tokenMarket.has(t.tokenId)) continue;
      this.#tokenMarket.set(t.tokenId, t.conditionId);
      if (!this.#markets.has(t.conditionId)) this.#markets.set(t.conditionId, { question: t.question, portfolio: new Portfolio(0), fills: 0, volume: 0 });
      this.#prices.set(t.tokenId, new PriceTrail());
    }
  }

  onFill(strategyId: string, fill: FillEvent, t: number): void {
    this.fills.push({ t, strategyId, tokenId: fill.tokenId, side: fill.side, price: fill.price, size: fill.size, fee: fill.fee, liquidity: fill.liquidity });
    this.#filledOrders.add(fill.clientOrderId);
    this.#markouts.onFill(fill.tokenId, fill.side, fill.price, fill.size, t);
    if (fill.liquidity === 'MAKER') this.#maker++;
    else this.#taker++;
    const conditionId = this.#tokenMarket.get(fill.tokenId);
    const market = conditionId === undefined ? undefined : this.#markets.get(conditionId);
    if (!market) return;
    const before = market.portfolio.position(fill.tokenId);
    market.portfolio.applyFill(fill);
    market.fills++;
    market.volume += notional(fill.price, fill.size);
    if (fill.side === 'SELL' && before.size > 0) {
      // a closing fill: what it realized against the average entry, less its own fee
      this.#closing++;
      const realized = market.portfolio.position(fill.tokenId).realizedPnl - before.realizedPnl;
      if (realized - fill.fee > 0) this.#winning++;
    }
  }

  /** One point of the equity curve. */
  sample(t: number, equity: Micros): void {
    const last = this.#t.length - 1;
    if (last >= 0 && this.#t[last] === t) {
      // the same instant twice (the final point on the grid): keep the newer
      this.#t.pop();
      this.#equity.pop();
    }
    this.#t.push(t);
    this.#equity.push(equity);
  }

  /** One point of the equity trail (every EQUITY_TRAIL_MS), and whether we held a position then (exposure). */
  trace(t: number, equity: Micros, exposed: boolean): void {
    this.#trail.add(t, equity);
    this.#traced++;
    if (exposed) this.#exposed++;
  }

  /** A token's mark after a book of it (for the price charts and the mark-outs). */
  mark(tokenId: TokenId, t: number, mark: Micros | undefined): void {
    this.#markouts.onMark(tokenId, t, mark);
    if (mark !== undefined) this.#prices.get(tokenId)?.add(t, mark);
  }

  curve(): EquityCurve {
    return { intervalMs: this.#intervalMs, t: this.#t, equity: this.#equity, trail: this.#trail, prices: this.#prices };
  }

  finish(input: {
    events: number;
    startingBalance: Micros;
    totals: { realizedPnl: Micros; unrealizedPnl: Micros; fees: Micros; turnover: Micros; fills: number };
    mark: (tokenId: TokenId) => Micros | undefined;
    /** Each strategy's figures at the same marks (the engine's `strategyFigures`). */
    strategies?: readonly StrategyFigures[];
    /** The markets that resolved (the engine's `settlements()`): each market's row takes its payouts. */
    settlements?: readonly { readonly conditionId: string; readonly tokens: readonly { readonly tokenId: TokenId; readonly payout: Micros }[] }[];
  }): BacktestMetrics {
    const { totals, startingBalance } = input;
    // a resolved market trades no more, so its payouts close what its fills left: realized, not marked
    for (const s of input.settlements ?? []) {
      const market = this.#markets.get(s.conditionId);
      if (market) for (const t of s.tokens) market.portfolio.settle(t.tokenId, t.payout);
    }
    const totalPnl = totals.realizedPnl + totals.unrealizedPnl - totals.fees;
    const markets: MarketRow[] = [];
    for (const [conditionId, m] of this.#markets) {
      const mt = m.portfolio.totals(input.mark);
      markets.push({
        conditionId,
        question: m.question,
        fills: m.fills,
        volume: m.volume,
        fees: mt.fees,
        realized: mt.realizedPnl,
        unrealized: mt.unrealizedPnl,
        pnl: mt.realizedPnl + mt.unrealizedPnl - mt.fees,
      });
    }
    markets.sort((a, b) => b.pnl - a.pnl || b.fills - a.fills || (a.conditionId < b.conditionId ? -1 : a.conditionId > b.conditionId ? 1 : 0));
    const drawdown = maxDrawdown(this.#equity);
    const first = this.#t[0] ?? 0;
    const last = this.#t[this.#t.length - 1] ?? first;
    return {
      events: input.events,
      fills: totals.fills,
      makerFills: this.#maker,
      takerFills: this.#taker,
      realized: totals.realizedPnl,
      unrealized: totals.unrealizedPnl,
      fees: totals.fees,
      totalPnl,
      startingBalance,
      endingEquity: startingBalance + totalPnl,
      return: new Dec(totalPnl).div(startingBalance),
      performance: performance(this.#equity, this.#intervalMs, drawdown.fraction),
      maxDrawdown: drawdown,
      spanMs: last - first,
      exposure: this.#traced > 0 ? new Dec(this.#exposed).div(this.#traced) : new Dec(0),
      filledOrders: this.#filledOrders.size,
      markouts: this.#markouts.finish(last),
      turnover: totals.turnover,
      closingFills: this.#closing,
      winningFills: this.#winning,
      winRate: this.#closing > 0 ? new Dec(this.#winning).div(this.#closing) : undefined,
      markets,
      strategies: input.strategies ?? [],
    };
  }
}

/** Largest fall from a running peak: in collateral, and as a share of that peak. */
export function maxDrawdown(equity: readonly Micros[]): { amount: Micros; fraction: Dec } {
  let peak = -Infinity;
  let amount = 0;
  let fraction = new Dec(0);
  for (const e of equity) {
    if (e > peak) peak = e;
    const fall = peak - e;
    if (fall > amount) amount = fall;
    if (fall > 0 && peak > 0) {
      const f = new Dec(fall).div(peak);
      if (f.gt(fraction)) fraction = f;
    }
  }
  return { amount, fraction };
}

/** Micros as an exact decimal string (the summary's money format). */
export function money(m: Micros): string {
  return formatMicros(m);
}
