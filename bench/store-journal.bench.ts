/**
 * How much the run store costs the engine: journal throughput (one commit per event vs one
 * commit per tick), and the per-order cost of the calls the engine makes per order
 * (`saveOrder` + `journal`, `updateOrder` + `journal`) as p50/p99 in microseconds, to set
 * against the tick-to-trade p99 (goal: journaling adds under 10%).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunStore } from '../src/store/run-store.ts';
import type { JournaledEvent } from '../src/engine/ports.ts';
import type { OrderRequest } from '../src/core/intents.ts';
import type { StoreDurability } from '../src/store/store-types.ts';
import type { BenchTable } from './table.ts';

const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const MARKET = '0x5f65177b394277fd294cd75650044e32ba009a95022d88a0c1d565897d72f8f1';
const ORDER_ID = `0x${'3f'.repeat(32)}`;

function req(runId: string, seq: number): OrderRequest {
  return {
    kind: 'place',
    tokenId: TOKEN,
    side: seq % 2 === 0 ? 'BUY' : 'SELL',
    price: 520_000 + (seq % 10) * 10_000,
    size: 10_000_000,
    orderType: 'GTC',
    postOnly: true,
    tag: 'quote',
    strategyId: 'mm',
    clientOrderId: `${runId}${seq.toString(16).padStart(24, '0')}`,
    conditionId: MARKET,
    createdAt: 1_700_000_000_000 + seq,
  };
}

function accepted(r: OrderRequest): JournaledEvent {
  return { type: 'order', strategyId: r.strategyId, event: { type: 'OrderAccepted', clientOrderId: r.clientOrderId, orderId: ORDER_ID, tsInit: r.createdAt + 3 } };
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

type Row = (string | number)[];

/** Each case stops after this long (or its count), so the whole run stays near 30 s on a busy machine. */
const BUDGET_MS = 2_500;

export async function run(): Promise<BenchTable> {
  const dir = mkdtempSync(join(tmpdir(), 'clobot-bench-store-'));
  const rows: Row[] = [];
  let n = 0;
  const open = (durability: StoreDurability = 'normal', checkpoints: 'background' | 'inline' = 'background') =>
    RunStore.open(join(dir, `s${n++}.db`), { create: true, durability, checkpoints });
  try {
    // ---- journal throughput: one commit per event, then one per batch
    for (const batch of [1, 10, 100, 1_000]) {
      const store = open();
      const events = Array.from({ length: 1_000 }, (_, i) => accepted(req(store.runId, i)));
      for (let i = 0; i < 2_000; i++) store.journal(events[i % 1_000]!); // warm-up
      const max = batch === 1 ? 10_000 : 100_000;
      let done = 0;
      const t0 = performance.now();
      while (done < max && performance.now() - t0 < BUDGET_MS) {
        if (batch === 1) store.journal(events[done % 1_000]!);
        else store.transaction(() => {
          for (let i = 0; i < batch; i++) store.journal(events[(done + i) % 1_000]!);
        });
        done += batch;
      }
      const ms = performance.now() - t0;
      rows.push([batch === 1 ? 'journal, one commit per event' : `journal, one commit per ${batch} events`, done, Math.round((done / ms) * 1000), (ms * 1000) / done, '-', '-', '-']);
      store.close();
    }

    // ---- per-order costs as the engine calls them
    const perOrder = async (label: string, durability: StoreDurability, max: number, tick: number, checkpoints: 'background' | 'inline' = 'background', paceMs = 0) => {
      const store = open(durability, checkpoints);
      store.reserveIds(max + 2_000);
      const reqs = Array.from({ length: max + 1_000 }, (_, i) => req(store.runId, i + 1));
      const place = new Float64Array(max);
      const update = new Float64Array(max);
      const oneOrder = (r: OrderRequest) => {
        store.saveOrder({ request: r, status: 'PENDING_SUBMIT', orderId: undefined, filled: 0 }, r.createdAt);
        store.journal({ type: 'run', at: r.createdAt, message: 'placed' });
      };
      const accept = (r: OrderRequest) => {
        store.updateOrder(r.clientOrderId, { status: 'LIVE', orderId: ORDER_ID.slice(0, -8) + r.clientOrderId.slice(-8), at: r.createdAt + 3 });
        store.journal(accepted(r));
      };
      for (let i = 0; i < Math.min(1_000, max); i++) {
        oneOrder(reqs[max + i]!);
        accept(reqs[max + i]!);
      }
      let done = 0;
      const started = performance.now();
      while (done < max && performance.now() - started < BUDGET_MS) {
        const i = done;
        const t0 = performance.now();
        if (tick === 1) oneOrder(reqs[i]!);
        else store.transaction(() => { for (let k = 0; k < tick; k++) oneOrder(reqs[i + k]!); });
        const t1 = performance.now();
        if (tick === 1) accept(reqs[i]!);
        else store.transaction(() => { for (let k = 0; k < tick; k++) accept(reqs[i + k]!); });
        const t2 = performance.now();
        for (let k = 0; k < tick; k++) {
          place[i + k] = ((t1 - t0) * 1000) / tick;
          update[i + k] = ((t2 - t1) * 1000) / tick;
        }
        done += tick;
        if (paceMs > 0) await new Promise((resolve) => setTimeout(resolve, paceMs));
      }
      for (const [name, all] of [['saveOrder + journal', place], ['updateOrder + journal', update]] as const) {
        const times = all.subarray(0, done).sort();
        const total = times.reduce((sum, x) => sum + x, 0);
        rows.push([`${name}, ${label}`, done, Math.round(done / (total / 1e6)), total / done, percentile(times, 50), percentile(times, 99), times[times.length - 1]!]);
      }
      store.close();
    };
    await perOrder('one commit each, flat out', 'normal', 5_000, 1);
    await perOrder('one commit each, flat out, inline checkpoints', 'normal', 5_000, 1, 'inline');
    await perOrder('one commit each, ~500 orders/s', 'normal', 1_000, 1, 'background', 2);
    await perOrder('one commit each, ~500 orders/s, inline checkpoints', 'normal', 1_000, 1, 'inline', 2);
    await perOrder('10 orders per tick commit, flat out', 'normal', 5_000, 10);
    await perOrder('10 orders per tick commit, ~1000 orders/s', 'normal', 2_000, 10, 'background', 10);
    await perOrder('one commit each, full (fsync)', 'full', 200, 1);

    // ---- the write before a 15-order post: the tick's orders (with their hashes) and its commit,
    // one INSERT per order, one multi-row INSERT, or staged as one row and folded into the orders
    // table on the next turn (what the engine's store persistence does: staged-orders.ts)
    for (const form of ['saveOrder x15', 'saveOrders (one statement)', 'stageOrders (one row, folded next turn)'] as const) {
      const store = open();
      const ticks = 2_000;
      const reqs = Array.from({ length: (ticks + 200) * 15 }, (_, i) => req(store.runId, i + 1));
      const times = new Float64Array(ticks);
      let done = 0;
      const started = performance.now();
      for (let t = -200; t < ticks && performance.now() - started < BUDGET_MS; t++) {
        const batch = reqs.slice((t + 200) * 15, (t + 201) * 15).map((r) => ({ order: { request: r, status: 'PENDING_SUBMIT' as const, orderId: ORDER_ID, filled: 0 }, at: r.createdAt }));
        const t0 = performance.now();
        store.transaction(() => {
          if (form === 'saveOrders (one statement)') store.saveOrders(batch);
          else if (form === 'saveOrder x15') for (const b of batch) store.saveOrder(b.order, b.at);
          else store.stageOrders(batch);
        });
        if (t >= 0) times[done++] = (performance.now() - t0) * 1000;
        // paced like a live run (a tick every few ms), so the WAL sees what it sees live
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const sorted = times.subarray(0, done).sort();
      const total = sorted.reduce((sum, x) => sum + x, 0);
      rows.push([`15 orders of one tick + its commit, ${form} (per tick)`, done, Math.round(done / (total / 1e6)), total / done, percentile(sorted, 50), percentile(sorted, 99), sorted[sorted.length - 1]!]);
      store.close();
    }

    // ---- id reservations (fsynced whatever the durability)
    {
      const store = open();
      const times: number[] = [];
      const started = performance.now();
      while (times.length < 30 && performance.now() - started < BUDGET_MS) {
        const t0 = performance.now();
        store.reserveIds(1_000);
        times.push((performance.now() - t0) * 1000);
      }
      const sorted = Float64Array.from(times).sort();
      const total = times.reduce((sum, x) => sum + x, 0);
      rows.push(['reserveIds(1000) (fsync)', times.length, Math.round(times.length / (total / 1e6)), total / times.length, percentile(sorted, 50), percentile(sorted, 99), sorted[sorted.length - 1]!]);
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    title: 'run store (better-sqlite3, WAL)',
    columns: ['case', 'n', 'per s', 'mean µs', 'p50 µs', 'p99 µs', 'max µs'],
    rows,
    notes: [
      `files in ${tmpdir()}; "normal" = synchronous=NORMAL (no fsync per commit), "full" = an fsync per commit`,
      'saveOrder + journal is what the engine adds per order before it is sent; updateOrder + journal per status change',
      'per-tick rows: one transaction around 10 orders, cost divided by 10 (p50/p99 over ticks); paced rows sleep between ticks like a live run',
      `each case stops after ${BUDGET_MS / 1000} s or its count (n is what was done)`,
      'checkpoints run on a worker thread (default); "inline checkpoints" = SQLite\'s own, inside the commit that crosses ~4 MB of WAL',
    ],
  };
}
