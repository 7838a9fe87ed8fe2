import { closeSync, existsSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { StoreError, type StoreErrorCode } from '../core/errors.ts';
import { REQUIRED_TABLES, STORE_FORMAT, STORE_SCHEMA_VERSION } from './schema.ts';

type Db = Database.Database;

const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * Turns a failure of SQLite (or of the file system under it) into a StoreError naming the file.
 * StoreErrors pass through unchanged.
 */
export function storeFailure(file: string, what: string, err: unknown, code: StoreErrorCode = 'WRITE_FAILED'): StoreError {
  if (err instanceof StoreError) return err;
  const sqliteCode = (err as { code?: unknown } | undefined)?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (typeof sqliteCode === 'string') {
    if (sqliteCode === 'SQLITE_NOTADB') return new StoreError(`${file}: not a SQLite database (${message})`, 'NOT_A_STORE', file, { cause: err });
    if (sqliteCode.startsWith('SQLITE_CORRUPT')) return new StoreError(`${file}: corrupt store (${message})`, 'CORRUPT', file, { cause: err });
    if (sqliteCode.startsWith('SQLITE_BUSY') || sqliteCode.startsWith('SQLITE_LOCKED')) {
      return new StoreError(`${file}: ${what} failed: in use by another process (${sqliteCode}: ${message})`, 'LOCKED', file, { cause: err });
    }
    if (sqliteCode.startsWith('SQLITE_READONLY') || sqliteCode.startsWith('SQLITE_CANTOPEN') || sqliteCode === 'SQLITE_PERM' || sqliteCode === 'SQLITE_AUTH') {
      return new StoreError(`${file}: ${what} failed: the file or its folder cannot be written (${sqliteCode}: ${message})`, 'READ_ONLY', file, { cause: err });
    }
  }
  const detail = typeof sqliteCode === 'string' ? `${sqliteCode}: ${message}` : message;
  return new StoreError(`${file}: ${what} failed (${detail})`, code, file, { cause: err });
}

/** Refuses a money amount that is not whole Micros (a store holds integers only). */
export function checkMicros(file: string, what: string, value: number): void {
  if (!Number.isSafeInteger(value)) throw new StoreError(`${file}: ${what} must be whole Micros, was ${value}`, 'INVALID', file);
}

/** The schema version in `meta`, 0 for a database with no tables at all (a new file). */
export function readSchemaVersion(db: Db, file: string): number {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").pluck().all() as string[];
  if (tables.length === 0) return 0;
  if (!tables.includes('meta')) throw new StoreError(`${file}: not a clobot store (no meta table)`, 'NOT_A_STORE', file);
  const rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
  const meta = new Map(rows.map((r) => [r.key, r.value]));
  const format = meta.get('format');
  if (format !== STORE_FORMAT) {
    throw new StoreError(`${file}: not a clobot store (meta format is ${format === undefined ? 'missing' : JSON.stringify(format)})`, 'NOT_A_STORE', file);
  }
  const text = meta.get('schemaVersion');
  const version = text !== undefined && /^[1-9]\d{0,8}$/.test(text) ? Number(text) : NaN;
  if (Number.isNaN(version)) throw new StoreError(`${file}: corrupt store (meta schemaVersion is ${JSON.stringify(text ?? null)})`, 'CORRUPT', file);
  return version;
}

/** Refuses a store written by a newer build. */
export function assertNotNewer(version: number, file: string): void {
  if (version > STORE_SCHEMA_VERSION) {
    throw new StoreError(
      `${file}: written by a newer clobot (store schema ${version}; this build reads up to ${STORE_SCHEMA_VERSION}); left untouched`,
      'NEWER_FORMAT',
      file,
    );
  }
}

/**
 * Opens an existing store read-only and checks it before anything writes to it: a SQLite file,
 * `PRAGMA integrity_check` clean, our format, a schema this build can read, every table there.
 * Returns the open read-only connection and its schema version; throws a StoreError otherwise
 * (the connection closed). A read-only connection never checkpoints, so the file stays as it was.
 */
export function openReadOnlyChecked(file: string): { db: Db; schemaVersion: number } {
  checkHeader(file);
  const before = sidecarsOf(file);
  let db: Db | undefined;
  try {
    db = openForReading(file);
    const problems = db.pragma('integrity_check') as { integrity_check: string }[];
    const first = problems[0]?.integrity_check;
    if (first !== 'ok') {
      const more = problems.length > 1 ? ` and ${problems.length - 1} more` : '';
      throw new StoreError(`${file}: corrupt store (integrity check: ${first ?? 'no answer'}${more})`, 'CORRUPT', file);
    }
    const schemaVersion = readSchemaVersion(db, file);
    if (schemaVersion === 0) throw new StoreError(`${file}: not a clobot store (no tables)`, 'NOT_A_STORE', file);
    assertNotNewer(schemaVersion, file);
    if (schemaVersion === STORE_SCHEMA_VERSION) {
      const present = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").pluck().all() as string[]);
      const missing = REQUIRED_TABLES.filter((t) => !present.has(t));
      if (missing.length > 0) throw new StoreError(`${file}: corrupt store (missing table${missing.length > 1 ? 's' : ''} ${missing.join(', ')})`, 'CORRUPT', file);
    }
    return { db, schemaVersion };
  } catch (err) {
    db?.close();
    removeNewSidecars(file, before);
    throw storeFailure(file, 'open', err, 'CORRUPT');
  }
}

/**
 * A read-only connection. A WAL store needs its `-shm` file, which SQLite creates beside the
 * store; on a read-only mount (or a folder we cannot write) that fails with SQLITE_CANTOPEN.
 * When no `-wal` holding anything is beside the store, every committed page is in the file
 * itself, so a copy of it is read from memory instead (its header marked rollback-journal, as
 * SQLite's in-memory databases have no WAL; this build of SQLite takes no `immutable=1` URI).
 * A `-wal` holding pages cannot be read without its `-shm`, so that case stays an error.
 */
function openForReading(file: string): Db {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('schema_version');
    return db;
  } catch (err) {
    db.close();
    const code = (err as { code?: unknown }).code;
    if (code !== 'SQLITE_CANTOPEN' || walHoldsPages(file)) throw err;
    const image = readFileSync(file);
    image[WRITE_VERSION_OFFSET] = 1;
    image[READ_VERSION_OFFSET] = 1;
    return new Database(image, { readonly: true });
  }
}

/** The database header's file format write and read versions: 2 means WAL, 1 rollback journal. */
const WRITE_VERSION_OFFSET = 18;
const READ_VERSION_OFFSET = 19;

function walHoldsPages(file: string): boolean {
  try {
    return statSync(`${file}-wal`).size > 0;
  } catch {
    return false;
  }
}

/** Which of SQLite's WAL files (`-wal`, `-shm`) are beside the store. */
export interface Sidecars {
  readonly wal: boolean;
  readonly shm: boolean;
}

export function sidecarsOf(file: string): Sidecars {
  return { wal: existsSync(`${file}-wal`), shm: existsSync(`${file}-shm`) };
}

/**
 * After a refused open (connection closed): removes the `-wal` and `-shm` files that opening
 * the store created, so a file we refused is left as we found it. Files that were there before
 * are kept, and so is a `-wal` holding anything (never lose a write).
 */
export function removeNewSidecars(file: string, before: Sidecars): void {
  if (before.wal || before.shm) return;
  const wal = `${file}-wal`;
  try {
    if (existsSync(wal) && statSync(wal).size > 0) return;
    rmSync(wal, { force: true });
    rmSync(`${file}-shm`, { force: true });
  } catch {
    // best effort: the refusal is what gets reported
  }
}

/** A store file that does not exist: where stores come from, for a newcomer looking for one. */
export const NO_STORE_THERE = 'no store there (a run keeps one only when given --store <file> or store.path in its config)';

function checkHeader(file: string): void {
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new StoreError(`${file}: not a clobot store (not a regular file)`, 'NOT_A_STORE', file);
    size = st.size;
  } catch (err) {
    if (err instanceof StoreError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'ENOENT') throw new StoreError(`${file}: ${NO_STORE_THERE}`, 'NOT_FOUND', file);
    throw new StoreError(`${file}: cannot read (${code ?? String(err)})`, 'NOT_FOUND', file, { cause: err });
  }
  if (size === 0) throw new StoreError(`${file}: not a clobot store (empty file)`, 'NOT_A_STORE', file);
  const head = Buffer.alloc(16);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    readSync(fd, head, 0, 16, 0);
  } catch (err) {
    throw new StoreError(`${file}: cannot read (${(err as { code?: string }).code ?? String(err)})`, 'NOT_FOUND', file, { cause: err });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (head.toString('latin1') !== SQLITE_HEADER) throw new StoreError(`${file}: not a SQLite database (no SQLite header)`, 'NOT_A_STORE', file);
  if (size < 100) throw new StoreError(`${file}: corrupt store (truncated to ${size} bytes)`, 'CORRUPT', file);
}
