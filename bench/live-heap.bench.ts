/**
 * The live run's heap against the orders it has placed: a run that places thousands of orders a
 * minute (bench/children/live-heap-run.ts, a child process per row, the sandbox in another) keeps
 * each finished order in memory for `execution.closedOrderRetentionMs` (late fills and settlement
 * moves of it are still booked), then drops it. With a retention shorter than the run the heap
 * levels off; with the default hour it grows by what each order keeps. Growth is the least-squares
 * slope of the heap after garbage collection over the orders placed from minute 2 on (start-up,
 * warm-up and the shorter retention's first minute left out).
 * `CLOBOT_BENCH_SECONDS` sets each run's length (default 240).
 */
import { spawnSync } from 'node:child_process';
import { childScript } from './bench-paths.ts';
import type { BenchTable } from './table.ts';

const SECONDS = Number(process.env['CLOBOT_BENCH_SECONDS'] ?? 240);
const WARM_MS = 120_000;

interface Sample {
  readonly at: number;
  readonly heapMb: number;
  readonly orders: number;
  readonly fills: number;
}

function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

function runOne(retentionMs: number): Sample[] {
  const child = spawnSync(process.execPath, ['--expose-gc', ...childScript('./children/live-heap-run', import.meta.url), String(retentionMs), String(SECONDS)], {
    encoding: 'utf8',
    maxBuffer: 1 << 22,
    timeout: (SECONDS + 120) * 1000,
  });
  if (child.status !== 0) throw new Error(`live run failed (${child.status}): ${child.stderr.slice(0, 800)}`);
  return child.stdout
    .split('\n')
    .filter((l) => l.startsWith('{"at"'))
    .map((l) => JSON.parse(l) as Sample);
}

export function run(): BenchTable {
  const rows: (string | number)[][] = [];
  for (const retentionMs of [60_000, 3_600_000]) {
    const samples = runOne(retentionMs);
    const warm = samples.filter((s) => s.at >= WARM_MS);
    const last = samples.at(-1)!;
    const first = warm[0]!;
    const kbPerOrder = slope(warm.map((s) => s.orders), warm.map((s) => s.heapMb * 1024));
    const mbPerMin = slope(warm.map((s) => s.at / 60_000), warm.map((s) => s.heapMb));
    rows.push([`${retentionMs / 1000} s`, last.orders, last.fills, Math.round((last.orders / last.at) * 60_000), first.heapMb, last.heapMb, kbPerOrder, mbPerMin]);
  }
  return {
    title: `live run heap after GC against orders placed (${SECONDS} s per row; growth from minute 2 on)`,
    columns: ['closed-order retention', 'orders', 'fills', 'orders/min', 'heap at 2 min MB', 'heap at end MB', 'KB per order', 'MB per min'],
    rows,
    notes: [
      'execution.closedOrderRetentionMs (default 1 h): a finished order stays in memory this long; the heap levels off after it',
      'the sandbox runs in its own process; this heap is the bot\'s alone',
    ],
  };
}
