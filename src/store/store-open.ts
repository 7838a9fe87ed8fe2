import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { StoreError } from '../core/errors.ts';
import { migrateStore } from './migrate.ts';
import { assertNotNewer, NO_STORE_THERE, openReadOnlyChecked, readSchemaVersion, removeNewSidecars, sidecarsOf, storeFailure } from './store-file.ts';
import { claimLock } from './store-lock.ts';
import { readAccount, readRun } from './store-queries.ts';
import type { LockHolder, RunInfo, RunStoreOptions, StoreDurability } from './store-types.ts';

type Db = Database.Database;

const RUN_ID = /^[0-9a-f]{8}$/;
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;
/**
 * Page size of a new store. The row that stages a 15-order batch before its post (~5 KB, see
 * staged-orders.ts) overflows a 4 KB page: its commit then writes the overflow page and the
 * freelist's (page 1) too, and costs several times a row that fits (measured: ~75-150 against
 * ~12-17 us). In an 8 KB page it fits, so that commit writes one WAL frame.
 */
const PAGE_SIZE = 8_192;

/** Stores open in this process, by absolute path: a second open here is refused too. */
const OPEN_HERE = new Set<string>();

/** A store file opened for writing, its lock taken, migrated, its run row in place. */
export interface OpenedStore {
  readonly file: string;
  readonly db: Db;
  readonly info: RunInfo;
  readonly durability: StoreDurability;
  readonly now: () => number;
  /** The dead process whose stale lock this open took over, if any. */
  readonly takenOver: LockHolder | undefined;
}

/**
 * Opens (or with `create`, creates) the store at `path` and takes its lock (see RunStore.open
 * for what is refused). The file counts as open in this process until `releaseOpened`.
 */
export function openStoreFile(path: string, options: RunStoreOptions): OpenedStore {
  const file = resolve(path);
  if (OPEN_HERE.has(file)) throw new StoreError(`${file}: locked by this process (pid ${process.pid})`, 'LOCKED', file);
  if (options.runId !== undefined && !RUN_ID.test(options.runId)) {
    throw new StoreError(`${file}: run id must be 8 lowercase hex characters, was ${JSON.stringify(options.runId)}`, 'INVALID', file);
  }
  const exists = existsSync(file);
  if (exists) {
    openReadOnlyChecked(file).db.close();
  } else if (!options.create) {
    throw new StoreError(`${file}: ${NO_STORE_THERE}`, 'NOT_FOUND', file);
  } else {
    try {
      mkdirSync(dirname(file), { recursive: true });
    } catch (err) {
      throw storeFailure(file, 'create directory', err, 'NOT_FOUND');
    }
  }
  const now = options.now ?? Date.now;
  const durability = options.durability ?? 'normal';
  const sidecars = sidecarsOf(file);
  let db: Db | undefined;
  try {
    db = new Database(file, { fileMustExist: exists, timeout: 5_000 });
    // a new file only (an existing one keeps its size): see PAGE_SIZE
    if (!exists) db.pragma(`page_size = ${PAGE_SIZE}`);
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') throw new StoreError(`${file}: cannot use WAL journaling (got ${String(mode)})`, 'WRITE_FAILED', file);
    // the claim (lock row, run row, migration) is fsynced whatever the durability
    db.pragma('synchronous = FULL');
    const d = db;
    let takenOver: LockHolder | undefined;
    const info = d
      .transaction(() => {
        const version = readSchemaVersion(d, file);
        assertNotNewer(version, file);
        if (version > 0) takenOver = claimLock(d, file, now(), false);
        migrateStore(d, file);
        if (version === 0) claimLock(d, file, now(), false);
        bindAccount(d, file, options.account);
        return ensureRun(d, file, options, now());
      })
      .immediate();
    if (durability !== 'full') d.pragma('synchronous = NORMAL');
    // a WAL larger than this is cut back to it after each checkpoint that empties it
    d.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
    OPEN_HERE.add(file);
    return { file, db: d, info, durability, now, takenOver };
  } catch (err) {
    db?.close();
    if (exists) {
      removeNewSidecars(file, sidecars);
      throw storeFailure(file, 'open', err);
    }
    throw abandonNewStore(file, err);
  }
}

/**
 * A store this open was creating failed part way: its file and sidecars are removed (nothing in
 * them was ever committed for a run), so a retry starts clean. A full disk says so in one line.
 */
function abandonNewStore(file: string, err: unknown): StoreError {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      rmSync(f, { force: true });
    } catch {
      // best effort: the failure is what gets reported
    }
  }
  const code = (err as { code?: unknown } | undefined)?.code;
  if (code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_WRITE') {
    const message = err instanceof Error ? err.message : String(err);
    return new StoreError(`${file}: cannot create the store: no space left on the disk (${String(code)}: ${message}); nothing was left behind`, 'DISK_FULL', file, { cause: err });
  }
  return storeFailure(file, 'create', err);
}

/** The file no longer counts as open in this process. */
export function releaseOpened(file: string): void {
  OPEN_HERE.delete(file);
}

/**
 * Records the address the store trades for on its first open that names one; refuses another
 * address later (one line naming both). Addresses compare case-blind (checksummed or not).
 */
function bindAccount(db: Db, file: string, account: string | undefined): void {
  if (account === undefined) return;
  const recorded = readAccount(db);
  if (recorded === undefined) {
    db.prepare("INSERT INTO meta (key, value) VALUES ('account', ?)").run(account);
    return;
  }
  if (recorded.toLowerCase() !== account.toLowerCase()) {
    throw new StoreError(
      `${file}: this store trades for ${recorded}, not ${account} (the account of this run's key); run with ${recorded}'s key, or give another store`,
      'OTHER_ACCOUNT',
      file,
    );
  }
}

function ensureRun(db: Db, file: string, options: RunStoreOptions, now: number): RunInfo {
  const existing = readRun(db);
  if (existing) {
    if (options.runId !== undefined && options.runId !== existing.runId) {
      throw new StoreError(`${file}: belongs to run ${existing.runId}, not ${options.runId}`, 'INVALID', file);
    }
    db.prepare('UPDATE run SET updated_at = ? WHERE id = 1').run(now);
    return { ...existing, updatedAt: now };
  }
  const runId = options.runId ?? randomBytes(4).toString('hex');
  db.prepare('INSERT INTO run (id, run_id, name, created_at, updated_at) VALUES (1, ?, ?, ?, ?)').run(runId, options.runName ?? null, now, now);
  return { runId, runName: options.runName, createdAt: now, updatedAt: now };
}
