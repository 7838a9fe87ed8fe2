import type { CompleteSetShape } from '../portfolio/complete-sets.ts';
import { formatMicros, type Micros } from '../core/fixed.ts';
import { notional } from '../core/money.ts';
import { reservedByOpenBuys } from '../portfolio/free-balance.ts';
import { accountFigures, strategyAccount, type AccountFigures, type OutsidePosition, type StrategyAccount } from '../portfolio/account-figures.ts';
import type { TokenId } from '../core/types.ts';
import { describeJournalEvent } from './journal-entry.ts';
import type { StoreSnapshot } from './store-reader.ts';
import type { JournalInput } from './store-types.ts';
import { SETTLEMENT_NOTE_PREFIX, settlementsOf } from './settlements.ts';
import { parseRewardsNote, rewardsSummaryOf, type RewardsSummary } from '../engine/reward-accrual.ts';

/**
 * What `clobot status` reports, JSON-ready: money as exact decimal strings, times as ISO 8601.
 * Unrealized PnL marks each position at the price of its newest fill (the store keeps no
 * books); `marks` says so.
 */
export interface StatusReport {
  readonly store: string;
  readonly schemaVersion: number;
  readonly run: {
    readonly id: string;
    readonly name: string | null;
    readonly createdAt: string;
    readonly updatedAt: string;
    /** The address the store trades for (recorded by its first live run), null before one. */
    readonly address: string | null;
  };
  /** The process holding the store: `held` (alive), `stale` (gone; the next open takes over), `held-elsewhere` (another host). */
  readonly lock: { readonly pid: number; readonly host: string; readonly since: string; readonly state: string } | null;
  readonly nextClientOrderSeq: number;
  readonly heartbeat: { readonly id: string; readonly at: string } | null;
  readonly counts: { readonly orders: number; readonly openOrders: number; readonly fills: number; readonly journal: number };
  /** The same figures, under the same names, as the run summary's `account`. */
  readonly account: StatusAccount;
  readonly positions: readonly StatusPosition[];
  /**
   * Each strategy's own figures (its orders' fills), at the same marks: fills, turnover, fees and
   * PnL add up to the account's (pnl to realized + unrealized - fees).
   */
  readonly strategies: readonly StatusStrategy[];
  /** Markets that resolved during the run, with the positions settled at their payout. */
  readonly settled: readonly StatusSettlement[];
  /** Our estimated liquidity rewards as of the latest sample (docs/rewards.md), apart from PnL; null before any. */
  readonly rewards: (RewardsSummary & { readonly at: string }) | null;
  /** Fills whose trade FAILED on chain: void, out of the positions and PnL above (their orders keep the size the venue matched). */
  readonly voidedFills: readonly StatusVoidedFill[];
  readonly openOrders: readonly StatusOrder[];
  readonly cursors: Readonly<Record<string, string>>;
  readonly events: readonly StatusEvent[];
}

/**
 * Marks: `run` when the run noted its marks (at each reading of the venue and at its stop: the
 * summary's), for the tokens it marked; else the price of the token's newest fill.
 */
export interface StatusAccount extends AccountFigures {
  readonly source: 'venue' | 'configured' | 'unknown';
  readonly marks: 'run' | 'last fill price';
  readonly outside: readonly OutsidePosition[];
}

/** The store cursor holding the newest AccountNote (JSON, money in Micros) but the cash. */
export const ACCOUNT_CURSOR = 'account';
/** The cursor of our latest reward accrual (engine/reward-accrual.ts `RewardsNote`, JSON). */
export const REWARDS_CURSOR = 'rewards';

/** The account note as the cursor keeps it. */
export interface StoredAccountNote {
  readonly at: number;
  readonly source: 'venue' | 'configured';
  readonly marks: Readonly<Record<string, number>>;
  readonly outside: readonly { readonly tokenId: string; readonly size: number }[];
  /** The complete sets the run held (absent in stores written before sets were valued). */
  readonly sets?: CompleteSetShape;
}

/** The newest account note of a store's cursors; undefined when the run wrote none (or it does not parse). */
export function accountNoteOf(cursors: Readonly<Record<string, string>>): StoredAccountNote | undefined {
  const text = cursors[ACCOUNT_CURSOR];
  if (text === undefined) return undefined;
  try {
    const note = JSON.parse(text) as StoredAccountNote;
    return typeof note === 'object' && note !== null && typeof note.marks === 'object' && Array.isArray(note.outside) ? note : undefined;
  } catch {
    return undefined;
  }
}

export interface StatusPosition {
  readonly tokenId: string;
  readonly size: string;
  readonly avgPrice: string;
  readonly realizedPnl: string;
  readonly mark: string;
  readonly unrealizedPnl: string;
}

/** One strategy's figures in the status report (the run summary's `byStrategy` names). */
export interface StatusStrategy extends StrategyAccount {
  readonly strategyId: string;
}

export interface StatusSettlement {
  readonly conditionId: string;
  /** The token that paid 1; null: no winner (each paid 0.5). */
  readonly winner: string | null;
  readonly at: string;
  readonly proceeds: string;
  readonly realizedPnl: string;
  /** The tokens held when it resolved: size and payout a share. */
  readonly tokens: readonly { readonly tokenId: string; readonly size: string; readonly payout: string }[];
}

export interface StatusVoidedFill {
  readonly tradeId: string;
  readonly clientOrderId: string;
  readonly tokenId: string;
  readonly side: string;
  readonly price: string;
  readonly size: string;
  readonly fee: string;
  readonly matchedAt: string;
  readonly voidedAt: string;
}

export interface StatusOrder {
  readonly clientOrderId: string;
  readonly orderId: string | null;
  readonly strategyId: string;
  readonly tokenId: string;
  readonly side: string;
  readonly price: string;
  readonly size: string;
  readonly filled: string;
  readonly status: string;
  readonly updatedAt: string;
}

export interface StatusEvent {
  readonly seq: number;
  readonly at: string;
  readonly type: string;
  readonly strategyId: string | null;
  readonly text: string;
  readonly event: JournalInput;
}

export function buildStatusReport(s: StoreSnapshot): StatusReport {
  const marks = new Map<TokenId, Micros>();
  for (const f of s.fills) marks.set(f.tokenId, f.price);
  const note = accountNoteOf(s.cursors);
  if (note) for (const [tokenId, m] of Object.entries(note.marks)) marks.set(tokenId, m);
  const mark = (id: TokenId) => marks.get(id);
  if (note?.sets !== undefined && Array.isArray(note.sets.pairs) && Array.isArray(note.sets.eventSets)) {
    s.portfolio.setCompleteSets(note.sets);
    s.ledger.setCompleteSets(note.sets);
  }
  const totals = s.portfolio.totals(mark);
  const reserved = reservedByOpenBuys(s.openOrders);
  const outside = (note?.outside ?? []).map((p): OutsidePosition => {
    const m = marks.get(p.tokenId);
    return m === undefined ? { tokenId: p.tokenId, size: formatMicros(p.size) } : { tokenId: p.tokenId, size: formatMicros(p.size), mark: formatMicros(m), value: formatMicros(notional(m, p.size)) };
  });
  const positions = s.portfolio
    .positions()
    .filter((p) => p.size !== 0 || p.realizedPnl !== 0)
    .map((p) => ({
      tokenId: p.tokenId,
      size: formatMicros(p.size),
      avgPrice: formatMicros(p.avgPrice),
      realizedPnl: formatMicros(p.realizedPnl),
      mark: formatMicros(marks.get(p.tokenId) ?? 0),
      unrealizedPnl: formatMicros(s.portfolio.totals((id) => (id === p.tokenId ? mark(id) : undefined)).unrealizedPnl),
    }));
  return {
    store: s.file,
    schemaVersion: s.schemaVersion,
    run: { id: s.run.runId, name: s.run.runName ?? null, createdAt: iso(s.run.createdAt), updatedAt: iso(s.run.updatedAt), address: s.run.account ?? null },
    lock: s.lock ? { pid: s.lock.pid, host: s.lock.host, since: iso(s.lock.since), state: s.lock.state } : null,
    nextClientOrderSeq: s.nextId,
    heartbeat: s.heartbeat ? { id: s.heartbeat.id, at: iso(s.heartbeat.at) } : null,
    counts: s.counts,
    account: { ...accountFigures(totals, reserved), source: note?.source ?? 'unknown', marks: note ? 'run' : 'last fill price', outside },
    positions,
    strategies: s.ledger.figures(s.portfolio, mark).map((f) => ({ strategyId: f.strategyId, ...strategyAccount(f) })),
    rewards: rewardsOf(s.cursors),
    settled: settlementsOf(s.cursors).map((m) => ({
      conditionId: m.conditionId,
      winner: m.winnerTokenId ?? null,
      at: iso(m.at),
      proceeds: formatMicros(m.proceeds),
      realizedPnl: formatMicros(m.realizedPnl),
      tokens: m.tokens.filter((t) => t.size !== 0).map((t) => ({ tokenId: t.tokenId, size: formatMicros(t.size), payout: formatMicros(t.payout) })),
    })),
    voidedFills: s.voidedFills.map((f) => ({
      tradeId: f.tradeId,
      clientOrderId: f.clientOrderId,
      tokenId: f.tokenId,
      side: f.side,
      price: formatMicros(f.price),
      size: formatMicros(f.size),
      fee: formatMicros(f.fee),
      matchedAt: iso(f.tsEvent),
      voidedAt: iso(f.voidedAt),
    })),
    openOrders: s.openOrders.map((o) => ({
      clientOrderId: o.request.clientOrderId,
      orderId: o.orderId ?? null,
      strategyId: o.request.strategyId,
      tokenId: o.request.tokenId,
      side: o.request.side,
      price: formatMicros(o.request.price),
      size: formatMicros(o.request.size),
      filled: formatMicros(o.filled),
      status: o.status,
      updatedAt: iso(o.updatedAt),
    })),
    cursors: Object.fromEntries(Object.entries(s.cursors).filter(([name]) => !name.startsWith(SETTLEMENT_NOTE_PREFIX) && name !== REWARDS_CURSOR)),
    events: s.events.map((e) => ({ seq: e.seq, at: iso(e.at), type: e.type, strategyId: e.strategyId ?? null, text: describeJournalEvent(e.event), event: e.event })),
  };
}

function iso(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
}

/** The run's reward accrual from its note, with when it was taken; null without a note. */
function rewardsOf(cursors: Readonly<Record<string, string>>): StatusReport['rewards'] {
  const note = parseRewardsNote(cursors[REWARDS_CURSOR]);
  return note === undefined ? null : { at: iso(note.at), ...rewardsSummaryOf(note) };
}
