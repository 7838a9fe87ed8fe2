import type { Micros } from '../core/fixed.ts';
import type { MarketEvent } from '../core/events.ts';
import type { RecordedMarket } from '../data/recording/format.ts';
import type { JournaledEvent } from '../engine/ports.ts';
import type { PositionView } from '../portfolio/portfolio.ts';
import type { FillEvent, OrderStatus } from '../core/events.ts';
import type { OrderRequest } from '../core/intents.ts';

/**
 * `normal`: WAL + synchronous=NORMAL; a commit survives a crash of the process (SIGKILL, OOM,
 * uncaught error) but the newest commits may be lost on power loss or a kernel crash.
 * `full`: synchronous=FULL, an fsync per commit; survives power loss too, at a much higher cost.
 * Id reservations are fsynced in both modes (see docs/store.md).
 */
export type StoreDurability = 'normal' | 'full';

export interface RunStoreOptions {
  /** Create the file (and its directory) when it does not exist. An existing store is opened as is. */
  readonly create?: boolean;
  /** Name of the run (the config's name), recorded when the store is created. */
  readonly runName?: string;
  /**
   * Run id for a NEW store (8 lowercase hex characters; default random). Reopening a store with
   * a different id is refused: a store belongs to one run.
   */
  readonly runId?: string;
  /**
   * The address this run trades for (the maker: its positions and cash are that address's). A
   * store records the first one it is opened with; opening it later for another address is
   * refused (a store's orders, fills and positions belong to one account).
   */
  readonly account?: string;
  readonly durability?: StoreDurability;
  /**
   * Where WAL checkpoints (copying the log into the database file, with fsyncs) run.
   * `background` (default): a worker thread, so they never stall the caller's thread.
   * `inline`: SQLite's automatic checkpoint inside the commit that crosses ~4 MB of log.
   */
  readonly checkpoints?: 'background' | 'inline';
  /** Time source for the store's own stamps (run created/updated, lock, reservations); default Date.now. */
  readonly now?: () => number;
}

/** What `saveOrder` needs: an engine `OrderRecord` fits as is. */
export interface OrderStateInput {
  readonly request: OrderRequest;
  readonly status: OrderStatus;
  readonly orderId: string | undefined;
  readonly filled: Micros;
}

export interface OrderUpdate {
  readonly status: OrderStatus;
  /** The venue order id (hash); kept when omitted. */
  readonly orderId?: string;
  /** Filled size so far; kept when omitted. */
  readonly filled?: Micros;
  readonly at: number;
  readonly reason?: string;
}

export interface OrderHistoryEntry {
  readonly status: OrderStatus;
  readonly at: number;
  readonly reason?: string;
}

/** An order as stored: the request it was sent with, its newest state and every status change. */
export interface StoredOrder {
  readonly request: OrderRequest;
  readonly orderId: string | undefined;
  readonly status: OrderStatus;
  readonly statusReason: string | undefined;
  readonly filled: Micros;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly history: readonly OrderHistoryEntry[];
}

/** A fill as stored; `seq` is its arrival order in this store (positions replay in that order). */
export interface StoredFill extends FillEvent {
  readonly seq: number;
}

/** A collateral balance set from outside the fills (start, venue reconciliation). */
export interface BalanceAnchor {
  readonly seq: number;
  readonly balance: Micros;
  /** The balance holds after every fill with `seq <= afterFillSeq`; later fills move it. */
  readonly afterFillSeq: number;
  readonly at: number;
  readonly reason: string | undefined;
}

/** A run lifecycle note for the journal (start, restart, reconciliation outcome, stop). */
export interface RunNote {
  readonly type: 'run';
  readonly at: number;
  readonly message: string;
  /** JSON-serialisable details. */
  readonly data?: unknown;
}

/**
 * The run's markets as a recording header keeps them (rules as decimal strings), journaled once
 * at every start of a run, so the store can be replayed as backtest data (`clobot backtest --data`).
 */
export interface MarketsNote {
  readonly type: 'markets';
  readonly at: number;
  /** Where the market data came from (the venue URL). */
  readonly source: string;
  readonly markets: readonly RecordedMarket[];
}

/**
 * A market event the engine received that changed its cache (unchanged books are dropped before
 * they reach the journal), journaled in the tick's transaction before what it caused. Money as
 * Micros (integers) in the JSON.
 */
export interface MarketDataEntry {
  readonly type: 'market';
  readonly event: MarketEvent;
}

/**
 * One message of the venue's user channel as received (live runs with the channel on,
 * docs/user-channel.md): its text, kept whole so the run's fills and venue cancels can be audited
 * and replayed from the store (src/execution/live/user-channel-replay.ts). Written off the order
 * path, like market events.
 */
export interface UserChannelNote {
  readonly type: 'userChannel';
  /** When we received it (the run's clock). */
  readonly at: number;
  /** The message, one JSON object as the venue sent it. */
  readonly text: string;
}

/** What the journal keeps: every engine event but order batches (their timings are metrics, not history), and the run's notes. */
export type JournalInput = JournaledEvent | RunNote | MarketsNote | MarketDataEntry | UserChannelNote;

/** Journal `type` column of user-channel messages. */
export const JOURNAL_USER_CHANNEL = 'UserChannel';

/** Journal `type` column of market events and of the markets note. */
export const JOURNAL_MARKET = 'Market';
export const JOURNAL_MARKETS = 'Markets';

export interface JournalRow {
  readonly seq: number;
  readonly at: number;
  /** OrderAccepted, OrderRejected, OrderDenied, OrderCanceled, OrderSubmitUnknown, OrderExpired, OrderFilled, Heartbeat, StrategyFaulted, Command, Run, Markets, Market, and the lifecycle types. */
  readonly type: string;
  readonly strategyId: string | undefined;
  readonly event: JournalInput;
}

export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly since: number;
}

export interface RunInfo {
  readonly runId: string;
  readonly runName: string | undefined;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The address the store trades for (the maker), recorded by the first run that named one. */
  readonly account?: string;
}

/** Everything a restarted run needs, read in one consistent snapshot. */
export interface LoadedRun {
  readonly runId: string;
  readonly runName: string | undefined;
  /** The first client order id sequence number never reserved: a restart continues from here. */
  readonly nextId: number;
  readonly orders: readonly StoredOrder[];
  /** Every fill, in arrival order. */
  readonly fills: readonly StoredFill[];
  readonly heartbeatId: string | undefined;
  /** When the stored heartbeat id was acknowledged. */
  readonly heartbeatAt: number | undefined;
  /** Derived from the fills (average-cost, exact). */
  readonly positions: readonly PositionView[];
  /** Newest balance anchor moved by the fills after it; 0 with no anchor. */
  readonly balance: Micros;
  readonly balances: readonly BalanceAnchor[];
  readonly cursors: Readonly<Record<string, string>>;
  /** Sequence number of the newest journal row (0: empty journal). */
  readonly journalSeq: number;
}
