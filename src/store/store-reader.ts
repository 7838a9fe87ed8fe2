import { resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { StoreError } from '../core/errors.ts';
import { replayLedger, replayPortfolio } from './replay-portfolio.ts';
import { applySettlements, settlePortfolio, settlementsOf } from './settlements.ts';
import { STORE_SCHEMA_VERSION } from './schema.ts';
import { openReadOnlyChecked, storeFailure } from './store-file.ts';
import { lockState, readLock, type LockState } from './store-lock.ts';
import {
  countJournalType,
  journalRows,
  journalRowsOfType,
  readBalances,
  readCounts,
  readCursors,
  readFillOwners,
  readFills,
  readHeartbeat,
  readJournalTail,
  readNextId,
  readOrders,
  readRun,
  readVoidedFills,
} from './store-queries.ts';
import type { BalanceAnchor, JournalRow, LockHolder, RunInfo, StoredFill, StoredOrder } from './store-types.ts';
import type { Portfolio } from '../portfolio/portfolio.ts';
import type { StrategyLedger } from '../portfolio/strategy-ledger.ts';

/** One consistent read of a store, for inspection. */
export interface StoreSnapshot {
  readonly file: string;
  readonly schemaVersion: number;
  readonly run: RunInfo;
  readonly lock: (LockHolder & { readonly state: LockState }) | undefined;
  readonly nextId: number;
  readonly heartbeat: { readonly id: string; readonly at: number } | undefined;
  readonly openOrders: readonly StoredOrder[];
  readonly fills: readonly StoredFill[];
  /** Fills whose trade failed on chain: out of `fills` and the portfolio, kept with when they were voided. */
  readonly voidedFills: readonly (StoredFill & { readonly voidedAt: number })[];
  readonly balances: readonly BalanceAnchor[];
  /** Fills replayed (positions, realized PnL, fees, balance). */
  readonly portfolio: Portfolio;
  /** The same fills per strategy (the strategy of each fill's order). */
  readonly ledger: StrategyLedger;
  readonly cursors: Readonly<Record<string, string>>;
  readonly counts: { readonly orders: number; readonly openOrders: number; readonly fills: number; readonly journal: number };
  readonly events: readonly JournalRow[];
}

/**
 * Read-only access to a store without taking its lock, so it works while a run owns the store
 * (WAL readers see the newest committed state and never block the writer). The same checks as
 * `RunStore.open` run first (SQLite, integrity, format, version); nothing is ever written.
 */
export class StoreReader {
  readonly file: string;
  readonly schemaVersion: number;
  readonly #db: Database.Database;

  static open(path: string): StoreReader {
    const file = resolve(path);
    const { db, schemaVersion } = openReadOnlyChecked(file);
    if (schemaVersion < STORE_SCHEMA_VERSION) {
      db.close();
      throw new StoreError(`${file}: store schema ${schemaVersion} is older than this build's ${STORE_SCHEMA_VERSION}; a run opening it migrates it`, 'INVALID', file);
    }
    return new StoreReader(file, db, schemaVersion);
  }

  private constructor(file: string, db: Database.Database, schemaVersion: number) {
    this.file = file;
    this.#db = db;
    this.schemaVersion = schemaVersion;
  }

  /** Everything `clobot status` shows, with the newest `events` journal rows. */
  snapshot(events = 20): StoreSnapshot {
    const db = this.#db;
    try {
      return db.transaction(() => {
        const run = readRun(db);
        if (!run) throw new StoreError(`${this.file}: corrupt store (no run row)`, 'CORRUPT', this.file);
        const holder = readLock(db);
        const fills = readFills(db);
        const balances = readBalances(db);
        const cursors = readCursors(db);
        return {
          file: this.file,
          schemaVersion: this.schemaVersion,
          run,
          lock: holder ? { ...holder, state: lockState(holder, false) } : undefined,
          nextId: readNextId(db),
          heartbeat: readHeartbeat(db),
          openOrders: readOrders(db, 'open'),
          fills,
          voidedFills: readVoidedFills(db),
          balances,
          // positions a market's resolution closed are closed here too, its payout counted once (settlements.ts)
          portfolio: settlePortfolio(replayPortfolio(fills, balances), settlementsOf(cursors), balances),
          ledger: applySettlements(replayLedger(fills, readFillOwners(db)), settlementsOf(cursors)),
          cursors,
          counts: readCounts(db),
          events: events > 0 ? readJournalTail(db, events) : [],
        };
      })();
    } catch (err) {
      throw storeFailure(this.file, 'read', err, 'CORRUPT');
    }
  }

  /**
   * Journal rows of one type (e.g. `Market`), oldest first, read page by page: rows committed
   * while iterating are seen. For replaying a run's market data as a backtest.
   */
  journalOfType(type: string, from = 1): Iterable<JournalRow> {
    const db = this.#db;
    const file = this.file;
    return {
      *[Symbol.iterator]() {
        try {
          yield* journalRowsOfType(db, type, from);
        } catch (err) {
          throw storeFailure(file, 'read journal', err, 'CORRUPT');
        }
      },
    };
  }

  /** Every order, oldest first, with its status history (for export). */
  orders(): StoredOrder[] {
    try {
      return readOrders(this.#db, 'all');
    } catch (err) {
      throw storeFailure(this.file, 'read orders', err, 'CORRUPT');
    }
  }

  /** Every fill in arrival order, each with the strategy of its order (for export). */
  fillsWithOwners(): { fill: StoredFill; strategyId: string | undefined }[] {
    try {
      const owners = readFillOwners(this.#db);
      return readFills(this.#db).map((fill) => ({ fill, strategyId: owners.get(fill.clientOrderId) }));
    } catch (err) {
      throw storeFailure(this.file, 'read fills', err, 'CORRUPT');
    }
  }

  /** Every journal row from `from` on, oldest first, read page by page. */
  journal(from = 1): Iterable<JournalRow> {
    const db = this.#db;
    const file = this.file;
    return {
      *[Symbol.iterator]() {
        try {
          yield* journalRows(db, from);
        } catch (err) {
          throw storeFailure(file, 'read journal', err, 'CORRUPT');
        }
      },
    };
  }

  /** Number of journal rows of one type. */
  countJournal(type: string): number {
    try {
      return countJournalType(this.#db, type);
    } catch (err) {
      throw storeFailure(this.file, 'read journal', err, 'CORRUPT');
    }
  }

  close(): void {
    this.#db.close();
  }
}
