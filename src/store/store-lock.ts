import { hostname } from 'node:os';
import type Database from 'better-sqlite3';
import { StoreError } from '../core/errors.ts';
import type { LockHolder } from './store-types.ts';

/**
 * Exclusive ownership of a store: one row in the `lock` table naming the owning process (pid,
 * host, since). It is claimed inside a `BEGIN IMMEDIATE` transaction, which SQLite grants to one
 * writer at a time, so two processes racing for a free or stale lock cannot both win. A row of a
 * process that no longer exists (killed, crashed) is stale and taken over; a row of a live process
 * refuses the open. Readers (`clobot status`) never take it.
 */

/** True when a process with this pid exists (EPERM: it exists but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

export function readLock(db: Database.Database): LockHolder | undefined {
  const row = db.prepare('SELECT pid, host, since FROM lock WHERE id = 1').get() as LockHolder | undefined;
  return row ? { pid: row.pid, host: row.host, since: row.since } : undefined;
}

export type LockState = 'free' | 'stale' | 'held' | 'held-elsewhere';

/**
 * How a lock row looks from this process. `openHere`: this process has the store open right now
 * (a row with our own pid is then ours, not a previous life of a reused pid).
 */
export function lockState(holder: LockHolder | undefined, openHere: boolean): LockState {
  if (!holder) return 'free';
  if (holder.host !== hostname()) return 'held-elsewhere';
  if (holder.pid === process.pid) return openHere ? 'held' : 'stale';
  return isProcessAlive(holder.pid) ? 'held' : 'stale';
}

/** Claims the lock; must run inside an IMMEDIATE transaction. Returns the stale holder taken over, if any. */
export function claimLock(db: Database.Database, file: string, now: number, openHere: boolean): LockHolder | undefined {
  const holder = readLock(db);
  const state = lockState(holder, openHere);
  if (state === 'held') {
    const who = holder!.pid === process.pid ? `this process (pid ${holder!.pid})` : `another process (pid ${holder!.pid})`;
    throw new StoreError(`${file}: locked by ${who}`, 'LOCKED', file);
  }
  if (state === 'held-elsewhere') {
    throw new StoreError(`${file}: locked by another process (pid ${holder!.pid} on host ${holder!.host}; cannot check it from here)`, 'LOCKED', file);
  }
  db.prepare('INSERT INTO lock (id, pid, host, since) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, host = excluded.host, since = excluded.since').run(
    process.pid,
    hostname(),
    now,
  );
  return state === 'stale' ? holder : undefined;
}

/** Releases the lock if this process holds it. */
export function releaseLock(db: Database.Database): void {
  db.prepare('DELETE FROM lock WHERE id = 1 AND pid = ? AND host = ?').run(process.pid, hostname());
}
