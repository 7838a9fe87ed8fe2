import { existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/core/errors.ts';
import { migrateStore } from '../../src/store/migrate.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { STORE_MIGRATIONS, STORE_SCHEMA_VERSION } from '../../src/store/schema.ts';
import { StoreReader } from '../../src/store/store-reader.ts';
import { storeFailure } from '../../src/store/store-file.ts';
import { exitCodeOf } from '../../src/cli/main.ts';
import { order, request, sha256, storeError, tempDir } from './helpers.ts';

const tmp = tempDir();

/** A closed store with some rows in it. */
function makeStore(name: string, rows = 10): string {
  const file = tmp.path(name);
  const store = RunStore.open(file, { create: true, runName: name });
  store.reserveIds(rows);
  for (let i = 1; i <= rows; i++) {
    store.saveOrder(order(request(store.runId, i)), i);
    store.journal({ type: 'run', at: i, message: `row ${i} ${'x'.repeat(200)}` });
  }
  store.close();
  return file;
}

/** Every way of opening: as the owner, with create, and as a reader. */
function everyOpen(file: string): StoreError[] {
  return [storeError(() => RunStore.open(file)), storeError(() => RunStore.open(file, { create: true })), storeError(() => StoreReader.open(file))];
}

describe('stores that cannot be opened', () => {
  it('no file: NOT_FOUND unless create', () => {
    const file = tmp.path('missing.db');
    const err = storeError(() => RunStore.open(file));
    expect(err.code).toBe('NOT_FOUND');
    expect(err.message).toBe(`${file}: no store there (a run keeps one only when given --store <file> or store.path in its config)`);
    expect(storeError(() => StoreReader.open(file)).code).toBe('NOT_FOUND');
    expect(existsSync(file)).toBe(false);
  });

  it('random bytes: not a SQLite database, file left as it was', () => {
    const file = tmp.path('random.db');
    writeFileSync(file, randomBytes(8192));
    const before = sha256(file);
    for (const err of everyOpen(file)) {
      expect(err.code).toBe('NOT_A_STORE');
      expect(err.message).toBe(`${file}: not a SQLite database (no SQLite header)`);
    }
    expect(sha256(file)).toBe(before);
  });

  it('an empty file is not taken for a new store', () => {
    const file = tmp.path('empty.db');
    writeFileSync(file, '');
    for (const err of everyOpen(file)) expect(err.message).toBe(`${file}: not a clobot store (empty file)`);
    expect(statSync(file).size).toBe(0);
  });

  it('a truncated store: corrupt, file left as it was', () => {
    const file = makeStore('truncated.db', 300);
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(40_000);
    truncateSync(file, Math.floor(size / 2));
    const before = sha256(file);
    for (const err of everyOpen(file)) {
      expect(err.code).toBe('CORRUPT');
      expect(err.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: corrupt store \\(`));
    }
    expect(sha256(file)).toBe(before);

    const short = makeStore('short.db');
    truncateSync(short, 60);
    expect(storeError(() => RunStore.open(short)).message).toBe(`${short}: corrupt store (truncated to 60 bytes)`);
  });

  it('a SQLite file without our tables: not a clobot store', () => {
    const file = tmp.path('foreign.db');
    const db = new Database(file);
    db.exec('CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT)');
    db.close();
    const before = sha256(file);
    for (const err of everyOpen(file)) {
      expect(err.code).toBe('NOT_A_STORE');
      expect(err.message).toBe(`${file}: not a clobot store (no meta table)`);
    }
    expect(sha256(file)).toBe(before);

    const other = tmp.path('other-format.db');
    const odb = new Database(other);
    odb.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('format', 'something-else')");
    odb.close();
    expect(storeError(() => RunStore.open(other)).message).toBe(`${other}: not a clobot store (meta format is "something-else")`);
  });

  it('a store with a table missing: corrupt, naming the table', () => {
    const file = makeStore('missing-table.db');
    const db = new Database(file);
    db.exec('DROP TABLE cursor');
    db.close();
    for (const err of everyOpen(file)) {
      expect(err.code).toBe('CORRUPT');
      expect(err.message).toBe(`${file}: corrupt store (missing table cursor)`);
    }
  });

  it('a store of a newer schema: refused, the file byte for byte unchanged', () => {
    const file = makeStore('newer.db');
    const db = new Database(file);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schemaVersion'").run(String(STORE_SCHEMA_VERSION + 1));
    db.exec('CREATE TABLE future_things (id INTEGER PRIMARY KEY)');
    db.close();
    expect(existsSync(file + '-wal')).toBe(false);
    const before = sha256(file);
    for (const err of everyOpen(file)) {
      expect(err.code).toBe('NEWER_FORMAT');
      expect(err.message).toBe(`${file}: written by a newer clobot (store schema ${STORE_SCHEMA_VERSION + 1}; this build reads up to ${STORE_SCHEMA_VERSION}); left untouched`);
    }
    expect(sha256(file)).toBe(before);
    // nothing was written through the WAL either
    expect(existsSync(file + '-wal') ? readFileSync(file + '-wal').length : 0).toBe(0);
  });
});

describe('refused opens leave nothing behind, and input errors exit 2', () => {
  it('a corrupt, a foreign-shaped and a newer store: no -wal or -shm is left beside the file', () => {
    const truncated = makeStore('left-truncated.db', 300);
    truncateSync(truncated, Math.floor(statSync(truncated).size / 2));
    const missing = makeStore('left-missing.db');
    const mdb = new Database(missing);
    mdb.exec('DROP TABLE cursor');
    mdb.close();
    const newer = makeStore('left-newer.db');
    const ndb = new Database(newer);
    ndb.prepare("UPDATE meta SET value = ? WHERE key = 'schemaVersion'").run(String(STORE_SCHEMA_VERSION + 1));
    ndb.close();
    for (const file of [truncated, missing, newer]) {
      expect([existsSync(`${file}-wal`), existsSync(`${file}-shm`)]).toEqual([false, false]);
      const before = sha256(file);
      for (const err of everyOpen(file)) {
        expect(['CORRUPT', 'NEWER_FORMAT']).toContain(err.code);
        expect(exitCodeOf(err)).toBe(2);
      }
      expect([existsSync(`${file}-wal`), existsSync(`${file}-shm`)]).toEqual([false, false]);
      expect(sha256(file)).toBe(before);
    }
  });

  it("SQLITE_BUSY (SQLite's lock held by another connection): LOCKED, exit 2; the holder's files are left alone", () => {
    const file = makeStore('busy.db');
    const holder = new Database(file);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    holder.exec('UPDATE run SET updated_at = 5');
    try {
      const err = storeError(() => RunStore.open(file));
      expect(err.code).toBe('LOCKED');
      expect(err.message).toBe(`${file}: open failed: in use by another process (SQLITE_BUSY: database is locked)`);
      expect(exitCodeOf(err)).toBe(2);
      // the holder's WAL, with its uncommitted write, is not ours to remove
      expect(existsSync(`${file}-wal`)).toBe(true);
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
    RunStore.open(file).close();
  }, 30_000);

  it('SQLITE_READONLY (the file or its folder cannot be written): READ_ONLY, exit 2', () => {
    const file = makeStore('readonly.db');
    const db = new Database(file, { readonly: true });
    let failure: unknown;
    try {
      db.exec('UPDATE run SET updated_at = 5');
    } catch (err) {
      failure = err;
    } finally {
      db.close();
    }
    expect((failure as { code?: string }).code).toBe('SQLITE_READONLY');
    const err = storeFailure(file, 'write', failure);
    expect(err.code).toBe('READ_ONLY');
    expect(err.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: write failed: the file or its folder cannot be written \\(SQLITE_READONLY: `));
    expect(exitCodeOf(err)).toBe(2);
  });
});

describe('migrations', () => {
  const extra = (up: (db: Database.Database) => void) => [...STORE_MIGRATIONS, { version: STORE_SCHEMA_VERSION + 1, description: 'test step', up }];

  it('an older store is brought up to date in one transaction', () => {
    const file = makeStore('migrate.db', 3);
    const db = new Database(file);
    const result = migrateStore(db, file, extra((d) => d.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL) STRICT; INSERT INTO notes (text) SELECT type FROM journal")));
    expect(result).toEqual({ from: STORE_SCHEMA_VERSION, to: STORE_SCHEMA_VERSION + 1 });
    expect(db.prepare("SELECT value FROM meta WHERE key = 'schemaVersion'").pluck().get()).toBe(String(STORE_SCHEMA_VERSION + 1));
    expect(db.prepare('SELECT count(*) FROM notes').pluck().get()).toBe(3);
    // already current: nothing runs again
    expect(migrateStore(db, file, extra(() => {
      throw new Error('must not run');
    }))).toEqual({ from: STORE_SCHEMA_VERSION + 1, to: STORE_SCHEMA_VERSION + 1 });
    db.close();
  });

  it('a failing migration leaves the store at its old version, untouched', () => {
    const file = makeStore('migrate-fail.db', 3);
    const db = new Database(file);
    const err = storeError(() =>
      migrateStore(db, file, extra((d) => {
        d.exec('CREATE TABLE half_done (id INTEGER PRIMARY KEY)');
        d.exec('INSERT INTO no_such_table VALUES (1)');
      })),
    );
    expect(err.message).toContain(`migration to schema ${STORE_SCHEMA_VERSION + 1} (test step) failed`);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'schemaVersion'").pluck().get()).toBe(String(STORE_SCHEMA_VERSION));
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half_done'").pluck().get()).toBe(0);
    db.close();
    const store = RunStore.open(file);
    expect(store.load().orders).toHaveLength(3);
    store.close();
  });
});

describe('the lock', () => {
  it('a second open in the same process is refused until the first closes', () => {
    const file = makeStore('same-process.db');
    const store = RunStore.open(file);
    const err = storeError(() => RunStore.open(file));
    expect(err.code).toBe('LOCKED');
    expect(err.message).toBe(`${file}: locked by this process (pid ${process.pid})`);
    store.close();
    RunStore.open(file).close();
  });

  it('a lock row of this pid from an earlier life (pid reused) is stale and taken over', () => {
    const file = makeStore('reused-pid.db');
    const db = new Database(file);
    db.prepare('INSERT INTO lock (id, pid, host, since) VALUES (1, ?, ?, 5)').run(process.pid, hostname());
    db.close();
    const store = RunStore.open(file);
    expect(store.takenOverFrom).toEqual({ pid: process.pid, host: hostname(), since: 5 });
    store.close();
  });

  it('a lock held on another host cannot be checked: refused', () => {
    const file = makeStore('other-host.db');
    const db = new Database(file);
    db.prepare('INSERT INTO lock (id, pid, host, since) VALUES (1, 4242, ?, 5)').run('elsewhere.example');
    db.close();
    const err = storeError(() => RunStore.open(file));
    expect(err.code).toBe('LOCKED');
    expect(err.message).toBe(`${file}: locked by another process (pid 4242 on host elsewhere.example; cannot check it from here)`);
  });
});
