import { formatMicros, type Micros } from '../core/fixed.ts';
import type { PortfolioTotals } from './portfolio.ts';
import type { StrategyFigures } from './strategy-ledger.ts';

/**
 * The account's figures under one set of names, wherever they are shown: the run summary, the
 * status view, `clobot status` and the backtest report. Exact decimal strings.
 * - cash: collateral held (live: the venue's balance, moved by our fills since it was read;
 *   paper and backtest: the configured balance moved by the simulated fills);
 * - reserved: what our open BUY orders promise (price × size left);
 * - free: cash less reserved, what `ctx.balance()` gives a strategy;
 * - positionValue: what the bot's positions are worth: the shares in complete sets (a YES+NO pair
 *   of one market, the YES of every outcome of a non-augmented neg-risk event) at the 1 a set
 *   pays, the others at size × mark (at cost when a token has no mark);
 * - completeSets, setValue: the sets held and what they pay (inside positionValue);
 * - setMarkValue: the same shares at their marks, what mark-to-mid alone would have said;
 * - equity: cash + positionValue;
 * - realized, unrealized, fees: the bot's PnL (unrealized at the same marks).
 * Positions held outside the bot (bought by hand on the same account) are in none of these.
 */
export interface AccountFigures {
  readonly cash: string;
  readonly reserved: string;
  readonly free: string;
  readonly positionValue: string;
  readonly completeSets: string;
  readonly setValue: string;
  readonly setMarkValue: string;
  readonly equity: string;
  readonly realized: string;
  readonly unrealized: string;
  readonly fees: string;
}

export function accountFigures(totals: PortfolioTotals, reserved: Micros): AccountFigures {
  return {
    cash: formatMicros(totals.cash),
    reserved: formatMicros(reserved),
    free: formatMicros(totals.cash - reserved),
    positionValue: formatMicros(totals.positionValue),
    completeSets: formatMicros(totals.completeSets),
    setValue: formatMicros(totals.setValue),
    setMarkValue: formatMicros(totals.setMarkValue),
    equity: formatMicros(totals.cash + totals.positionValue),
    realized: formatMicros(totals.realizedPnl),
    unrealized: formatMicros(totals.unrealizedPnl),
    fees: formatMicros(totals.fees),
  };
}

/** A position the venue lists beyond what the bot's own fills explain (a trade made by hand). */
export interface OutsidePosition {
  readonly tokenId: string;
  /** Shares held outside the bot, decimal text. */
  readonly size: string;
  /** The mark the figures use, when the token has one. */
  readonly mark?: string;
  /** size × mark (kept apart from the bot's equity and PnL). */
  readonly value?: string;
}

/**
 * One strategy's figures (StrategyLedger.figures) under the names the run summary, `clobot status`
 * and the backtest summary show them: exact decimal strings.
 */
export interface StrategyAccount {
  readonly fills: number;
  readonly turnover: string;
  readonly fees: string;
  /** realized + unrealized - fees. */
  readonly pnl: string;
  /** Realized and unrealized on the strategy's own average cost (their sum less fees is `pnl`). */
  readonly realized: string;
  readonly unrealized: string;
  readonly positions: readonly { readonly tokenId: string; readonly size: string; readonly avgPrice: string; readonly realized: string }[];
}

/** A strategy's figures as the summaries show them. */
export function strategyAccount(f: StrategyFigures): StrategyAccount {
  return {
    fills: f.fills,
    turnover: formatMicros(f.turnover),
    fees: formatMicros(f.fees),
    pnl: formatMicros(f.pnl),
    realized: formatMicros(f.realizedPnl),
    unrealized: formatMicros(f.unrealizedPnl),
    positions: f.positions.map((p) => ({ tokenId: p.tokenId, size: formatMicros(p.size), avgPrice: formatMicros(p.avgPrice), realized: formatMicros(p.realizedPnl) })),
  };
}
