import type Database from 'better-sqlite3';
import type { Side } from '../core/types.ts';
import type { OrderStatus } from '../core/events.ts';
import type { OrderRequest } from '../core/intents.ts';
import { OPEN_STATUSES } from '../execution/order-tracker.ts';
import { JOURNAL_MARKET, type BalanceAnchor, type JournalInput, type JournalRow, type OrderHistoryEntry, type RunInfo, type StoredFill, type StoredOrder } from './store-types.ts';

/**
 * Reads shared by the owning `RunStore` (load on restart) and the lock-free `StoreReader`
 * (`clobot status`). Prepared per call: they run once per load, not on the hot path.
 */

type Db = Database.Database;

const OPEN_LIST = [...OPEN_STATUSES].map((s) => `'${s}'`).join(', ');

export function readRun(db: Db): RunInfo | undefined {
  const row = db.prepare('SELECT run_id, name, created_at, updated_at FROM run WHERE id = 1').get() as
    | { run_id: string; name: string | null; created_at: number; updated_at: number }
    | undefined;
  if (!row) return undefined;
  const account = readAccount(db);
  return { runId: row.run_id, runName: row.name ?? undefined, createdAt: row.created_at, updatedAt: row.updated_at, ...(account ? { account } : {}) };
}

/** `meta.account`: the address the store trades for, when a run has named one. */
export function readAccount(db: Db): string | undefined {
  return (db.prepare("SELECT value FROM meta WHERE key = 'account'").pluck().get() as string | undefined) ?? undefined;
}

/** First client order id sequence number never reserved (1 on a new store). */
export function readNextId(db: Db): number {
  const last = db.prepare('SELECT max(last_id) FROM id_reservations').pluck().get() as number | null;
  return (last ?? 0) + 1;
}

interface OrderRow {
  client_order_id: string;
  order_id: string | null;
  status: string;
  status_reason: string | null;
  filled: number;
  request: string;
  created_at: number;
  updated_at: number;
}

export function readOrders(db: Db, which: 'all' | 'open' = 'all'): StoredOrder[] {
  const where = which === 'open' ? `WHERE status IN (${OPEN_LIST})` : '';
  const rows = db.prepare(`SELECT client_order_id, order_id, status, status_reason, filled, request, created_at, updated_at FROM orders ${where} ORDER BY created_at, client_order_id`).all() as OrderRow[];
  const history = new Map<string, OrderHistoryEntry[]>();
  // a staged order (not folded yet: staged-orders.ts) has the one history row its fold will write
  const historySql =
    which === 'open'
      ? `SELECT h.client_order_id, h.n, h.status, h.at, h.reason FROM order_history h JOIN order_rows o ON o.client_order_id = h.client_order_id WHERE o.status IN (${OPEN_LIST})
         UNION ALL SELECT client_order_id, 1, status, updated_at, status_reason FROM staged_orders WHERE status IN (${OPEN_LIST}) ORDER BY 1, 2`
      : `SELECT client_order_id, n, status, at, reason FROM order_history
         UNION ALL SELECT client_order_id, 1, status, updated_at, status_reason FROM staged_orders ORDER BY 1, 2`;
  for (const h of db.prepare(historySql).iterate() as IterableIterator<{ client_order_id: string; status: string; at: number; reason: string | null }>) {
    let list = history.get(h.client_order_id);
    if (!list) history.set(h.client_order_id, (list = []));
    list.push(h.reason === null ? { status: h.status as OrderStatus, at: h.at } : { status: h.status as OrderStatus, at: h.at, reason: h.reason });
  }
  return rows.map((r) => ({
    request: JSON.parse(r.request) as OrderRequest,
    orderId: r.order_id ?? undefined,
    status: r.status as OrderStatus,
    statusReason: r.status_reason ?? undefined,
    filled: r.filled,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    history: history.get(r.client_order_id) ?? [],
  }));
}

interface FillRow {
  seq: number;
  trade_id: string;
  order_id: string;
  client_order_id: string;
  token_id: string;
  side: string;
  price: number;
  size: number;
  fee: number;
  liquidity: string;
  confirmed: number;
  ts_event: number;
  ts_init: number;
}

export function readFills(db: Db): StoredFill[] {
  const rows = db
    .prepare('SELECT seq, trade_id, order_id, client_order_id, token_id, side, price, size, fee, liquidity, confirmed, ts_event, ts_init FROM fills ORDER BY seq')
    .all() as FillRow[];
  return rows.map(fillOfRow);
}

function fillOfRow(r: FillRow): StoredFill {
  return {
    type: 'OrderFilled',
    seq: r.seq,
    clientOrderId: r.client_order_id,
    orderId: r.order_id,
    tradeId: r.trade_id,
    tokenId: r.token_id,
    side: r.side as Side,
    price: r.price,
    size: r.size,
    fee: r.fee,
    liquidity: r.liquidity as 'MAKER' | 'TAKER',
    confirmed: r.confirmed === 1,
    tsEvent: r.ts_event,
    tsInit: r.ts_init,
  };
}

/** Fills whose trade failed on chain (voided_fills), in their original order, with when each was voided. */
export function readVoidedFills(db: Db): (StoredFill & { readonly voidedAt: number })[] {
  const rows = db
    .prepare('SELECT seq, trade_id, order_id, client_order_id, token_id, side, price, size, fee, liquidity, confirmed, ts_event, ts_init, voided_at FROM voided_fills ORDER BY seq')
    .all() as (FillRow & { voided_at: number })[];
  return rows.map((r) => ({ ...fillOfRow(r), voidedAt: r.voided_at }));
}

/** The strategy of each order that has fills: client order id to strategy id. */
export function readFillOwners(db: Db): Map<string, string> {
  const rows = db.prepare('SELECT client_order_id, strategy_id FROM orders WHERE client_order_id IN (SELECT client_order_id FROM fills)').all() as {
    client_order_id: string;
    strategy_id: string;
  }[];
  return new Map(rows.map((r) => [r.client_order_id, r.strategy_id]));
}

export function readLastFillSeq(db: Db): number {
  return (db.prepare('SELECT max(seq) FROM fills').pluck().get() as number | null) ?? 0;
}

export function readBalances(db: Db): BalanceAnchor[] {
  const rows = db.prepare('SELECT seq, balance, after_fill_seq, at, reason FROM balances ORDER BY seq').all() as {
    seq: number;
    balance: number;
    after_fill_seq: number;
    at: number;
    reason: string | null;
  }[];
  return rows.map((r) => ({ seq: r.seq, balance: r.balance, afterFillSeq: r.after_fill_seq, at: r.at, reason: r.reason ?? undefined }));
}

export function readHeartbeat(db: Db): { id: string; at: number } | undefined {
  const row = db.prepare('SELECT chain_id, at FROM heartbeat WHERE id = 1').get() as { chain_id: string; at: number } | undefined;
  return row ? { id: row.chain_id, at: row.at } : undefined;
}

export function readCursors(db: Db): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of db.prepare('SELECT name, value FROM cursor ORDER BY name').all() as { name: string; value: string }[]) out[r.name] = r.value;
  return out;
}

export function readJournalSeq(db: Db): number {
  return (db.prepare('SELECT max(seq) FROM journal').pluck().get() as number | null) ?? 0;
}

interface JournalDbRow {
  seq: number;
  at: number;
  type: string;
  strategy_id: string | null;
  payload: string;
}

function toJournalRow(r: JournalDbRow): JournalRow {
  return { seq: r.seq, at: r.at, type: r.type, strategyId: r.strategy_id ?? undefined, event: JSON.parse(r.payload) as JournalInput };
}

/** Up to `limit` journal rows with `seq >= from`, oldest first. */
export function readJournalPage(db: Db, from: number, limit: number): JournalRow[] {
  return (db.prepare('SELECT seq, at, type, strategy_id, payload FROM journal WHERE seq >= ? ORDER BY seq LIMIT ?').all(from, limit) as JournalDbRow[]).map(toJournalRow);
}

/** The newest `n` journal rows, oldest first; market data rows (`Market`) are left out. */
export function readJournalTail(db: Db, n: number): JournalRow[] {
  const rows = db.prepare(`SELECT seq, at, type, strategy_id, payload FROM journal WHERE type <> '${JOURNAL_MARKET}' ORDER BY seq DESC LIMIT ?`).all(n) as JournalDbRow[];
  return rows.reverse().map(toJournalRow);
}

/**
 * Journal rows from `from` on, oldest first, read in pages: the connection is free between
 * pages, so writes may interleave with the iteration (rows written meanwhile are seen).
 */
export function* journalRows(db: Db, from = 1, pageSize = 1_000): Generator<JournalRow> {
  let next = from;
  for (;;) {
    const page = readJournalPage(db, next, pageSize);
    for (const row of page) yield row;
    if (page.length < pageSize) return;
    next = page[page.length - 1]!.seq + 1;
  }
}

/** Journal rows of one `type` from `from` on, oldest first, read in pages like `journalRows`. */
export function* journalRowsOfType(db: Db, type: string, from = 1, pageSize = 1_000): Generator<JournalRow> {
  const page = db.prepare('SELECT seq, at, type, strategy_id, payload FROM journal WHERE seq >= ? AND type = ? ORDER BY seq LIMIT ?');
  let next = from;
  for (;;) {
    const rows = (page.all(next, type, pageSize) as JournalDbRow[]).map(toJournalRow);
    for (const row of rows) yield row;
    if (rows.length < pageSize) return;
    next = rows[rows.length - 1]!.seq + 1;
  }
}

/** Number of journal rows of one `type`. */
export function countJournalType(db: Db, type: string): number {
  return db.prepare('SELECT count(*) FROM journal WHERE type = ?').pluck().get(type) as number;
}

export function readCounts(db: Db): { orders: number; openOrders: number; fills: number; journal: number } {
  const one = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    orders: one('SELECT count(*) FROM orders'),
    openOrders: one(`SELECT count(*) FROM orders WHERE status IN (${OPEN_LIST})`),
    fills: one('SELECT count(*) FROM fills'),
    journal: one('SELECT count(*) FROM journal'),
  };
}
