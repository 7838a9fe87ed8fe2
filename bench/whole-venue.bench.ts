/**
 * The whole venue (issue 27 point 3): a run that follows every market of a sandbox with 10,000
 * markets over the WS market channel while the sandbox's synthetic flow moves their books.
 *
 * The sandbox (`clobot sandbox`) and the run (bench/children/whole-venue-run.ts: the run session
 * `clobot run` starts, paper mode, `data.markets: all`, one strategy that only watches) are two
 * processes, so each one's CPU time is its own (getrusage of the run inside it, /proc of the
 * sandbox over the same window). One row per flow rate (`--flow-actions-per-second`).
 *
 * Per row: start-up to every book known (from the start of the run session: the market listing,
 * the subscriptions, the snapshots), RSS after the warm-up and its peak over the window, book
 * changes absorbed per second (the strategy's onBook calls), the run's CPU per book change and in
 * cores, the sandbox's cores, and the oldest book's age (now - the time the book was last
 * confirmed, looked at every 500 ms) against `risk.staleBookMs`.
 *
 * `npm run bench -- whole-venue`. CLOBOT_BENCH_VENUE_MARKETS (default 10000),
 * CLOBOT_BENCH_VENUE_FLOWS (actions per second, default "400,1600"), CLOBOT_BENCH_VENUE_WARMUP_S
 * (default 20), CLOBOT_BENCH_VENUE_MEASURE_S (default 30).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { childScript, REPO_ROOT as ROOT } from './bench-paths.ts';
import type { BenchTable } from './table.ts';

const MARKETS = Number(process.env['CLOBOT_BENCH_VENUE_MARKETS'] ?? 10_000);
const FLOWS = (process.env['CLOBOT_BENCH_VENUE_FLOWS'] ?? '400,1600').split(',').map(Number);
const WARMUP_S = Number(process.env['CLOBOT_BENCH_VENUE_WARMUP_S'] ?? 20);
const MEASURE_S = Number(process.env['CLOBOT_BENCH_VENUE_MEASURE_S'] ?? 30);
/** Events the markets are grouped in (the sandbox's default share: one per four markets). */
const EVENTS = Math.max(1, Math.floor(MARKETS / 4));

interface RunResult {
  markets: number;
  tokens: number;
  withBook: number;
  listedMs: number;
  knownMs: number;
  startupCpuMs: number;
  rssAfterWarmUpMb: number;
  peakRssMb: number;
  heapMb: number;
  windowMs: number;
  windowCpuMs: number;
  books: number;
  oldestMs: number;
  oldestP50Ms: number;
  staleBookMs: number;
  marketData: { connections: number; reconnects: number; silences: number; refreshedBooks: number };
}

/** CPU ms of a process so far (utime + stime from /proc; clock ticks of 10 ms). */
function procCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function startSandbox(flow: number): Promise<{ url: string; child: ChildProcess }> {
  const args = ['sandbox', '--port', '0', '--markets', String(MARKETS), '--events', String(EVENTS), '--flow-actions-per-second', String(flow), '--leader-episodes', '0', '--neg-risk-episodes', '0'];
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'clobot.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      text += chunk;
      const m = /listening on (http:\/\/[\d.:]+)/.exec(text);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return { url, child };
}

async function measure(flow: number): Promise<RunResult & { sandboxCores: number; sandboxFlow: number }> {
  const sandbox = await startSandbox(flow);
  const dir = mkdtempSync(join(tmpdir(), 'clobot-whole-venue-'));
  try {
    const run = spawn(process.execPath, [...childScript('./children/whole-venue-run', import.meta.url), sandbox.url, String(WARMUP_S), String(MEASURE_S), dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = once(run, 'exit');
    let result: RunResult | undefined;
    let sandboxCpu = 0;
    let sandboxAt = 0;
    let sandboxCores = NaN;
    let flowAt = 0;
    let sandboxFlow = NaN;
    const flowActions = async (): Promise<number> => ((await (await fetch(`${sandbox.url}/admin/flow`)).json()) as { actions: number }).actions;
    for await (const line of createInterface({ input: run.stdout })) {
      const msg = JSON.parse(line) as { phase: string } & RunResult;
      if (msg.phase === 'measure') {
        sandboxCpu = procCpuMs(sandbox.child.pid!);
        sandboxAt = performance.now();
        flowAt = await flowActions();
      } else if (msg.phase === 'measured') {
        const seconds = (performance.now() - sandboxAt) / 1000;
        sandboxCores = (procCpuMs(sandbox.child.pid!) - sandboxCpu) / 1000 / seconds;
        sandboxFlow = ((await flowActions()) - flowAt) / seconds;
      } else if (msg.phase === 'result') result = msg;
    }
    const [code] = (await exited) as [number | null];
    if (code !== 0 || result === undefined) throw new Error(`whole-venue-run exited with ${code}`);
    return { ...result, sandboxCores, sandboxFlow };
  } finally {
    sandbox.child.kill('SIGTERM');
    await once(sandbox.child, 'exit');
    rmSync(dir, { recursive: true, force: true });
  }
}

const r0 = (n: number): number => Math.round(n);
const r1 = (n: number): number => Math.round(n * 10) / 10;
const r2 = (n: number): number => Math.round(n * 100) / 100;

export async function run(): Promise<BenchTable> {
  const rows: (string | number)[][] = [];
  let staleBookMs = NaN;
  for (const flow of FLOWS) {
    const r = await measure(flow);
    staleBookMs = r.staleBookMs;
    const seconds = r.windowMs / 1000;
    rows.push([
      `${flow} (${r0(r.sandboxFlow)})`,
      `${r.markets} / ${r.tokens}`,
      r1(r.listedMs / 1000),
      r.withBook === r.tokens ? r1(r.knownMs / 1000) : `${r.withBook} of ${r.tokens} in ${r1(r.knownMs / 1000)}`,
      r1(r.startupCpuMs / 1000),
      r0(r.rssAfterWarmUpMb),
      r0(r.peakRssMb),
      r0(r.books / seconds),
      r1((r.windowCpuMs * 1000) / Math.max(1, r.books)),
      r2(r.windowCpuMs / r.windowMs),
      r2(r.sandboxCores),
      `${r0(r.oldestP50Ms)} / ${r0(r.oldestMs)}`,
      `${r.marketData.connections} / ${r.marketData.silences} / ${r.marketData.reconnects}`,
    ]);
  }
  return {
    title: `whole venue: a paper run following every open market of a ${MARKETS.toLocaleString('en-US')}-market sandbox over the WS market channel (warm-up ${WARMUP_S} s, window ${MEASURE_S} s)`,
    columns: [
      'flow actions/s (seen)',
      'markets / tokens',
      'listing s',
      'all books s',
      'start-up CPU s',
      'RSS MB',
      'peak RSS MB',
      'books/s',
      'CPU µs/book',
      'run cores',
      'sandbox cores',
      `oldest book ms p50 / max (limit ${staleBookMs})`,
      'conns / silences / reconnects',
    ],
    rows,
    notes: [
      'two processes: the sandbox (`clobot sandbox --flow-actions-per-second <n>`) and the run (the run session of `clobot run`, paper mode, data.transport ws, data.markets all, one strategy that only watches)',
      "'all books s': from the run session's start (market listing through the paginated GET /markets, WS subscriptions, snapshots) until every token has a book; 'listing s' the part before the first subscription",
      "'RSS MB' after the warm-up, 'peak RSS MB' over the window; 'books/s' book changes the strategy heard per second of the window",
      "'CPU µs/book' and 'run cores': the run's own CPU time (getrusage: user + system) over the window, per book change and per second of wall; 'sandbox cores': the sandbox's over the same window (/proc)",
      "'oldest book': every 500 ms the largest now - bookSeenAt over every token (what the staleBook risk check compares with risk.staleBookMs); p50 and max over the window",
    ],
  };
}
