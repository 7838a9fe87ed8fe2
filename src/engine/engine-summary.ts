import { formatMicros } from '../core/fixed.ts';
import type { Micros } from '../core/fixed.ts';
import { accountFigures, strategyAccount, type AccountFigures, type OutsidePosition, type StrategyAccount } from '../portfolio/account-figures.ts';
import type { PortfolioTotals } from '../portfolio/portfolio.ts';
import type { StrategyFigures } from '../portfolio/strategy-ledger.ts';
import type { EngineCounts } from './engine-metrics.ts';
import type { RewardsSummary } from './reward-accrual.ts';

/** An order still live at the venue when the stop gave up (prices and sizes as decimal text). */
export interface LiveOrder {
  readonly orderId: string | undefined;
  readonly clientOrderId: string | undefined;
  readonly tokenId: string;
  readonly side: string;
  readonly price: string;
  /** What is left to fill. */
  readonly size: string;
}

/** What the stop found: verified when the venue listed none of our orders live at the end. */
export interface StopReport {
  readonly verified: boolean;
  /** Rounds of cancel and listing it took (or made before the stop deadline). */
  readonly rounds: number;
  readonly live: readonly LiveOrder[];
  /**
   * Set when no listing of the venue's open orders answered within the deadline: the stop is
   * unverified and `live` holds the orders our own book had open, not the venue's word.
   */
  readonly unlisted?: true;
}

/** A strategy's fault as the summary shows it: who, when (ISO 8601, the run's clock) and the stack of its own code. */
export interface FaultReport {
  readonly strategyId: string;
  readonly message: string;
  readonly at: string;
  /** The message, then the frames of the strategy's code (`at ... (file:line:col)`). */
  readonly stack: string;
}

/** The run summary written by `clobot run --summary` (and shown in the status view). */
export interface EngineSummary {
  readonly ordersSubmitted: number;
  readonly ordersAccepted: number;
  readonly ordersRejected: number;
  readonly ordersDenied: Readonly<Record<string, number>>;
  readonly ordersDeniedTotal: number;
  readonly ordersCanceled: number;
  readonly ordersSubmitUnknown: number;
  /** Orders posted again after a 429 or 503 (same signed orders). */
  readonly ordersResubmitted: number;
  readonly reconciled: { readonly found: number; readonly missing: number; readonly orphansCancelled: number };
  readonly batches: number;
  readonly fills: number;
  /** The fills booked this life by settlement state: CONFIRMED, still provisional, FAILED (void: out of positions and PnL). */
  readonly fillsBySettlement: { readonly confirmed: number; readonly provisional: number; readonly failed: number };
  readonly openOrders: number;
  readonly http429: number;
  readonly heartbeats: { readonly sent: number; readonly acknowledged: number; readonly missed: number; readonly lost: number };
  /** Cash, reserved, free, position value, equity, realized, unrealized, fees: the same names as `clobot status` and the report. */
  readonly account: AccountSummary;
  readonly turnover: string;
  readonly strategies: Readonly<Record<string, string>>;
  /**
   * Each strategy's own figures (its fills only, a restarted run's earlier lives included): fills,
   * turnover, fees and PnL, which add up to the run's (`turnover`, `account.fees`, and
   * `account.realized + account.unrealized - account.fees`), and its positions. A hosted strategy
   * that never traded has a row of zeros. See StrategyLedger.figures.
   */
  readonly byStrategy: Readonly<Record<string, StrategyAccount>>;
  readonly faults: number;
  /** The first strategy fault of the run, with its stack (absent without faults). */
  readonly firstFault?: FaultReport;
  /** The verified stop's outcome (absent while running, or when the stop kept the orders). */
  readonly stop?: StopReport;
  /** Faults that ended the run or halted trading (store, log sink, credentials), one line each. */
  readonly alerts?: readonly string[];
  /**
   * Our estimated liquidity rewards (docs/rewards.md), apart from trading PnL: not in `account`,
   * equity or any PnL figure. Absent when the run tracks no market that pays rewards.
   */
  readonly rewards?: RewardsSummary;
}

/**
 * The account in the summary: its figures, where the cash came from (`venue`: read from the
 * venue's balance route at start and on a period; `configured`: the config's starting balance),
 * and the positions the venue lists beyond the bot's own (kept out of the figures).
 */
export interface AccountSummary extends AccountFigures {
  readonly source: 'venue' | 'configured';
  readonly outside: readonly OutsidePosition[];
}

/** The figures a summary is made of besides the counts (engine.summary gathers them). */
export interface SummaryInput {
  readonly counts: EngineCounts;
  /** Denials by code (codes never seen left out). */
  readonly deniedByCode: Readonly<Record<string, number>>;
  readonly firstFault: FaultReport | undefined;
  readonly totals: PortfolioTotals;
  /** Each strategy's figures (StrategyLedger.figures). */
  readonly byStrategy: readonly StrategyFigures[];
  readonly fillsBySettlement: { readonly confirmed: number; readonly provisional: number; readonly failed: number };
  /** What our open BUY orders promise. */
  readonly reserved: Micros;
  readonly account: { readonly source: 'venue' | 'configured'; readonly outside: readonly OutsidePosition[] };
  readonly http429: number;
  readonly heartbeats: { readonly sent: number; readonly acknowledged: number; readonly missed: number };
  readonly openOrders: number;
  readonly strategies: Record<string, string>;
  readonly stop?: StopReport;
  readonly alerts?: readonly string[];
  readonly rewards?: RewardsSummary | undefined;
}

/** The run summary from the run's metrics and the engine's state, with exact decimal strings. */
export function buildSummary(input: SummaryInput): EngineSummary {
  const c = input.counts;
  const denied: Record<string, number> = {};
  for (const [code, n] of Object.entries(input.deniedByCode)) if (n > 0) denied[code] = n;
  return {
    ordersSubmitted: c.submitted,
    ordersAccepted: c.accepted,
    ordersRejected: c.rejected,
    ordersDenied: denied,
    ordersDeniedTotal: c.denied,
    ordersCanceled: c.canceled,
    ordersSubmitUnknown: c.submitUnknown,
    ordersResubmitted: c.resubmitted,
    reconciled: { found: c.reconciledFound, missing: c.reconciledMissing, orphansCancelled: c.orphansCancelled },
    batches: c.batches,
    fills: c.fills,
    fillsBySettlement: input.fillsBySettlement,
    openOrders: input.openOrders,
    http429: input.http429,
    heartbeats: { ...input.heartbeats, lost: c.heartbeatLost },
    account: { ...accountFigures(input.totals, input.reserved), source: input.account.source, outside: input.account.outside },
    turnover: formatMicros(input.totals.turnover),
    strategies: input.strategies,
    byStrategy: Object.fromEntries(input.byStrategy.map((f) => [f.strategyId, strategyAccount(f)])),
    faults: c.faults,
    ...(input.firstFault ? { firstFault: input.firstFault } : {}),
    ...(input.stop ? { stop: input.stop } : {}),
    ...(input.alerts && input.alerts.length > 0 ? { alerts: input.alerts } : {}),
    ...(input.rewards ? { rewards: input.rewards } : {}),
  };
}
