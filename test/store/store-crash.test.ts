import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/core/errors.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { StoreReader } from '../../src/store/store-reader.ts';
import { clobot, spawnChild, tempDir, type Child } from './helpers.ts';

const tmp = tempDir();
const children: Child[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    await c.exited;
  }
});

function start(args: string[]): Child {
  const child = spawnChild(args);
  children.push(child);
  return child;
}

describe('a store owned by another process', () => {
  it('a live owner: a second open gets one "locked" error; status still reads it; after SIGKILL the stale lock is taken over', async () => {
    const file = tmp.path('held.db');
    const child = start(['hold', file]);
    const [, pid, runId] = (await child.waitFor((l) => l.startsWith('ready '))).split(' ');
    expect(Number(pid)).toBe(child.proc.pid);

    let err: unknown;
    try {
      RunStore.open(file, { create: true });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('LOCKED');
    expect((err as StoreError).message).toBe(`${file}: locked by another process (pid ${pid})`);

    // a reader does not take the lock and sees who holds it
    const reader = StoreReader.open(file);
    expect(reader.snapshot().lock).toMatchObject({ pid: Number(pid), state: 'held' });
    reader.close();
    const status = clobot(['status', file, '--json']);
    expect(status.status).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ run: { id: runId }, lock: { pid: Number(pid), state: 'held' } });

    child.proc.kill('SIGKILL');
    expect(await child.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const store = RunStore.open(file);
    expect(store.runId).toBe(runId);
    expect(store.takenOverFrom?.pid).toBe(Number(pid));
    store.close();
  });

  it('SIGKILL in the middle of writes: the store opens clean, every acknowledged write is there, no reserved id comes back', async () => {
    const file = tmp.path('killed.db');
    const child = start(['write', file]);
    const [, pid, runId] = (await child.waitFor((l) => l.startsWith('ready '))).split(' ');
    await child.waitFor((l) => l === 'ack 1500');
    child.proc.kill('SIGKILL');
    expect(await child.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const acked = child.lines.filter((l) => l.startsWith('ack ')).map((l) => Number(l.slice(4)));
    const reservedTo = Math.max(...child.lines.filter((l) => l.startsWith('ids ')).map((l) => Number(l.split(' ')[2])));
    expect(acked.length).toBeGreaterThanOrEqual(1500);

    // opening runs the integrity check, takes over the dead owner's lock, keeps the run id
    const store = RunStore.open(file);
    expect(store.runId).toBe(runId);
    expect(store.takenOverFrom?.pid).toBe(Number(pid));
    const loaded = store.load();
    const orderByTag = new Map(loaded.orders.map((o) => [o.request.tag, o]));
    const fillTrades = new Set(loaded.fills.map((f) => f.tradeId));
    const journaled = new Set([...store.journalEvents()].map((r) => (r.event.type === 'order' && r.event.event.type === 'OrderAccepted' ? r.event.event.orderId : '')));
    const missing: number[] = [];
    for (const n of acked) {
      const o = orderByTag.get(`n${n}`);
      if (!o || o.status !== 'LIVE' || !fillTrades.has(`trade-${n}`) || !journaled.has(`n${n}`)) missing.push(n);
    }
    expect(missing).toEqual([]);
    // writes are all-or-nothing per transaction: no order of an even (batched) write without its fill
    for (const o of loaded.orders) {
      const n = Number(o.request.tag!.slice(1));
      if (n % 2 === 0) expect(fillTrades.has(`trade-${n}`)).toBe(true);
    }
    // ids: the next block starts after everything the dead process had reserved
    expect(loaded.nextId).toBeGreaterThan(reservedTo);
    const next = store.reserveIds(10);
    expect(next.from).toBeGreaterThan(reservedTo);
    const usedSeqs = loaded.orders.map((o) => parseInt(o.request.clientOrderId.slice(8), 16));
    expect(Math.max(...usedSeqs)).toBeLessThan(next.from);
    store.close();

    const db = new Database(file, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });
});
