import type { FillEvent, OrderEvent } from '../core/events.ts';
import { formatMicros } from '../core/fixed.ts';
import { describeReason, type HealthState } from '../engine/health.ts';
import type { AccountFigures } from '../portfolio/account-figures.ts';
import type { StatusOrder } from '../store/store-status.ts';

/**
 * What the control API and the dashboard show of a run, JSON-ready: money and sizes as exact
 * decimal strings, times as epoch ms. The same shape whether it comes from a running engine
 * (live-source.ts) or from a store file (store-source.ts, read-only).
 */
export interface ControlState {
  /** `live` or `paper`: a running engine; `store`: a store file read (a run in progress or finished). */
  readonly source: 'live' | 'paper' | 'store';
  /** No control actions (a store file's dashboard). */
  readonly readOnly: boolean;
  readonly run: { readonly id: string; readonly name: string | null; readonly store: string | null };
  /** When this state was read, epoch ms. */
  readonly at: number;
  readonly health: HealthView;
  /** The named halts on (empty: trading, as far as halts go). */
  readonly halts: readonly { readonly name: string; readonly reason: string; readonly since: number; readonly latched: boolean }[];
  readonly account: AccountFigures;
  readonly positions: readonly PositionRow[];
  readonly openOrders: readonly OrderRow[];
  /** The newest fills, newest first. */
  readonly fills: readonly FillRow[];
  /** PnL (realized + unrealized - fees) and equity over time, oldest first. */
  readonly pnl: readonly PnlPoint[];
  /**
   * Our estimated liquidity rewards over time (the engine's estimate, src/engine/reward-accrual.ts,
   * apart from the PnL), oldest first. A store keeps only its latest estimate: one point.
   */
  readonly rewards: readonly RewardPoint[];
  /** Use of the venue's rate budget, by window (a route's own or its group's); null where not known (a store file). */
  readonly rateBudget: RateBudgetView | null;
  /** Orders denied before reaching the venue, by deny code. */
  readonly denials: Readonly<Record<string, number>>;
  readonly strategies: readonly StrategyRow[];
  /** The newest log lines, oldest first. */
  readonly logs: readonly LogLine[];
  readonly counts: { readonly ordersSubmitted: number; readonly ordersAccepted: number; readonly ordersRejected: number; readonly ordersCanceled: number; readonly fills: number };
}

/**
 * Health and trading permission (the engine's health model, src/engine/health.ts): its state,
 * each reason with its one line (`text`); `unknown` where nothing is known (a store file).
 */
export interface HealthView {
  readonly health: string;
  readonly permission: string;
  readonly reasons: readonly unknown[];
  /** Since when it holds, epoch ms (null: not known). */
  readonly since: number | null;
}

export const UNKNOWN_HEALTH: HealthView = Object.freeze({ health: 'unknown', permission: 'unknown', reasons: Object.freeze([]), since: null });

/** A health state as the control server shows it: each reason with its one line (`text`). */
export function healthView(state: HealthState): HealthView {
  return { ...state, reasons: state.reasons.map((r) => ({ ...r, text: describeReason(r) })) };
}

/** Where the run's health comes from (live-source.ts's engineHealth). */
export interface HealthPort {
  current(): HealthView;
  /** Calls `listener` on each change; returns its unsubscribe. */
  changes(listener: (health: HealthView) => void): () => void;
}

export interface PositionRow {
  readonly strategyId: string;
  readonly tokenId: string;
  readonly size: string;
  readonly avgPrice: string;
  readonly realized: string;
}

/** An open order as `clobot status` shows it, but its time of update. */
export type OrderRow = Omit<StatusOrder, 'updatedAt'>;

export interface FillRow {
  readonly at: number;
  readonly strategyId: string;
  readonly clientOrderId: string;
  readonly tradeId: string;
  readonly tokenId: string;
  readonly side: string;
  readonly price: string;
  readonly size: string;
  readonly fee: string;
  readonly liquidity: string;
  readonly confirmed: boolean;
}

export interface PnlPoint {
  readonly at: number;
  readonly pnl: string;
  readonly equity: string;
}

export interface RewardPoint {
  readonly at: number;
  /** The run's estimated rewards so far, USDC (6 decimals). */
  readonly total: string;
}

/** The rate budget's windows (src/venue/rate-budget.ts) as the page shows them. */
export interface RateBudgetView {
  readonly windows: readonly RateWindowRow[];
  /** Routes paused after a 429, with the epoch ms they resume at. */
  readonly paused: readonly { readonly route: string; readonly until: number }[];
}

/** One window of the budget: a route's own (`POST /order burst`, `GET /book`) or its group's (`trading`), as the page's columns. */
export interface RateWindowRow {
  readonly name: string;
  /** (used + inFlight) / limit: 1 is full. */
  readonly share: number;
  /** Requests finished inside the window, and holding a permit now. */
  readonly used: number;
  readonly inFlight: number;
  readonly limit: number;
  readonly windowMs: number;
}

/** Where the rate budget's use comes from (the run's venue client; control does not import the venue). */
export type RateBudgetPort = () => RateBudgetView;

export interface StrategyRow {
  readonly id: string;
  readonly state: string;
  /** Its params now (null: not known, a store's dashboard). */
  readonly params: unknown;
  /** The keys a params update may set while it runs. */
  readonly updatable: readonly string[];
  readonly fills: number;
  readonly pnl: string;
  readonly fees: string;
}

export interface LogLine {
  readonly at: number;
  readonly level: string;
  readonly msg: string;
  /** The line's other fields (pino's, secrets redacted). */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** A message of the message WebSocket (`/api/messages`). */
export type ControlMessage =
  | { readonly type: 'hello'; readonly state: ControlState }
  | { readonly type: 'state'; readonly state: ControlState }
  | { readonly type: 'fill'; readonly fill: FillRow }
  | { readonly type: 'order'; readonly strategyId: string; readonly event: OrderEvent }
  | { readonly type: 'health'; readonly health: HealthView }
  | { readonly type: 'log'; readonly line: LogLine }
  | { readonly type: 'command'; readonly command: unknown; readonly result: unknown; readonly at: number }
  | { readonly type: 'pnl'; readonly point: PnlPoint }
  | { readonly type: 'rewards'; readonly point: RewardPoint };

export function fillRow(strategyId: string, f: FillEvent): FillRow {
  return {
    at: f.tsInit,
    strategyId,
    clientOrderId: f.clientOrderId,
    tradeId: f.tradeId,
    tokenId: f.tokenId,
    side: f.side,
    price: formatMicros(f.price),
    size: formatMicros(f.size),
    fee: formatMicros(f.fee),
    liquidity: f.liquidity,
    confirmed: f.confirmed,
  };
}
