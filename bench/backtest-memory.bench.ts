/**
 * Peak resident memory of a backtest replaying a 1 GB recording (JSON lines, 20-level books,
 * the band quoter), as a user runs it: `clobot backtest <config> --data <file>` (bin/clobot.mjs;
 * dist/ under `npm run bench:dist`), its processes' peak RSS read from /proc while it runs. The
 * recording is generated into a temporary directory once and deleted at the end. The replay
 * streams the file, so memory should not grow with it.
 *
 * Rows: the command (the replaying process, and the launcher that starts it with node's flags,
 * bin/relaunch.mjs); the replay in one process with no command line around it
 * (bench/backtest-memory-child.ts, with where the memory is at its peak); with
 * CLOBOT_BENCH_MEMORY_BEFORE=<another checkout> (its dist/ built), that checkout's command in the
 * same rounds, for a before/after. CLOBOT_BENCH_ROUNDS rounds (default 3), cases alternating.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticEvents, syntheticHeader, type SyntheticOptions } from '../src/backtest/synthetic-recording.ts';
import { createRecordingWriter } from '../src/data/recording/writer.ts';
import { childScript, isCompiled, REPO_ROOT } from './bench-paths.ts';
import type { BenchTable } from './table.ts';

const TARGET_BYTES = 1024 ** 3;
const GOAL_MB = 200; // issue 27 point 2
const DATA: SyntheticOptions = { seed: 9, markets: 6, depth: 20, events: Number.MAX_SAFE_INTEGER, meanGapMs: 100, moveShare: 0.05, tradeShare: 0.05 };
const ROUNDS = Number(process.env.CLOBOT_BENCH_ROUNDS ?? 3);

function config(root: string): string {
  return `
mode: backtest
name: memory
data:
  markets: { filter: { maxCount: 6 } }
strategies:
  - id: bq
    module: ${JSON.stringify(join(root, 'strategies', '02-band-quoter.ts'))}
    params: { size: 10, halfSpreadTicks: 2, requoteTicks: 2 }
backtest:
  latencyMs: 50
`;
}

/** One process of a command's tree: its peak RSS (VmHWM) and CPU seconds, as last read. */
interface ProcessSeen {
  pid: number;
  parent: number;
  peakKb: number;
  cpuSeconds: number;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** Reads /proc/<pid>: peak RSS and CPU so far; undefined once it is gone. */
function readProcess(pid: number): { peakKb: number; cpuSeconds: number; children: number[] } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return { peakKb, cpuSeconds, children };
  } catch {
    return undefined;
  }
}

/** Runs `args` under node, reading its process tree every 20 ms; each process's last reading. */
async function runWatched(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ seconds: number; processes: ProcessSeen[]; stdout: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const seen = new Map<number, ProcessSeen>();
  const watch = (pid: number, parent: number): void => {
    const now = readProcess(pid);
    if (now === undefined) return;
    const known = seen.get(pid) ?? { pid, parent, peakKb: 0, cpuSeconds: 0 };
    known.peakKb = Math.max(known.peakKb, now.peakKb);
    known.cpuSeconds = Math.max(known.cpuSeconds, now.cpuSeconds);
    seen.set(pid, known);
    for (const c of now.children) watch(c, pid);
  };
  const timer = setInterval(() => watch(child.pid!, 0), 20);
  const code = await new Promise<number | null>((done) => child.on('close', done));
  clearInterval(timer);
  if (code !== 0) throw new Error(`clobot backtest failed (${code}): ${stderr.slice(-800)}`);
  return { seconds: (performance.now() - started) / 1000, processes: [...seen.values()], stdout };
}

interface CaseRound {
  replayMb: number;
  launcherMb?: number;
  cpuSeconds: number;
  seconds: number;
}

/** `clobot backtest` of the checkout at `root`: the replaying process (the deepest) and its launcher. */
async function commandRound(root: string, dir: string, data: string, tag: string): Promise<CaseRound> {
  const configPath = join(dir, `memory-${tag}.yaml`);
  writeFileSync(configPath, config(root));
  const args = [join(root, 'bin', 'clobot.mjs'), 'backtest', configPath, '--data', data, '--out', join(dir, `out-${tag}`), '--no-progress'];
  // compiled benches run the checkouts' dist/, as an installed clobot does
  const env = { ...process.env, CLOBOT_RUN_DIST: isCompiled(import.meta.url) ? '1' : '', CLOBOT_DEBUG: '' };
  const run = await runWatched(args, dir, env);
  const top = run.processes.find((p) => p.parent === 0);
  const replay = run.processes.find((p) => p.parent === top?.pid) ?? top;
  if (top === undefined || replay === undefined) throw new Error('clobot backtest: its process was never read');
  if (!run.stdout.includes('replayed ')) throw new Error(`clobot backtest: no summary in its output: ${run.stdout.slice(-400)}`);
  return {
    replayMb: replay.peakKb / 1024,
    launcherMb: replay === top ? undefined : top.peakKb / 1024,
    cpuSeconds: run.processes.reduce((sum, p) => sum + p.cpuSeconds, 0),
    seconds: run.seconds,
  };
}

interface ChildReport {
  events: number;
  orders: number;
  fills: number;
  seconds: number;
  startRssKb: number;
  maxRssKb: number;
  sampledRssKb: number;
  sampledHeapTotalKb: number;
  sampledHeapUsedKb: number;
}

/** The replay alone, in one process (bench/backtest-memory-child.ts), with its own heap samples. */
async function inProcessRound(dir: string, data: string): Promise<CaseRound & { report: ChildReport }> {
  const configPath = join(dir, 'memory-child.yaml');
  writeFileSync(configPath, config(REPO_ROOT));
  const run = await runWatched([...childScript('./backtest-memory-child', import.meta.url), configPath, data], dir, process.env);
  const report = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as ChildReport;
  const cpuSeconds = run.processes.reduce((sum, p) => sum + p.cpuSeconds, 0);
  // under `npm run bench` the child is bin/run-ts.mjs's; its own report is the replaying process
  return { replayMb: report.maxRssKb / 1024, cpuSeconds, seconds: report.seconds, report };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function spread(values: readonly number[], digits = 0): string {
  if (values.length === 0) return '-';
  const f = (v: number): string => v.toFixed(digits);
  return values.length === 1 ? f(values[0]!) : `${f(median(values))} (${f(Math.min(...values))}-${f(Math.max(...values))})`;
}

export async function run(): Promise<BenchTable> {
  const dir = mkdtempSync(join(tmpdir(), 'clobot-bench-mem-'));
  try {
    const file = join(dir, 'books.jsonl');
    const generated = performance.now();
    const writer = createRecordingWriter(file, syntheticHeader(DATA));
    for (const event of syntheticEvents(DATA)) {
      writer.write(event);
      if (writer.events % 10_000 === 0 && writer.bytes >= TARGET_BYTES) break;
    }
    await writer.close();
    const genSeconds = (performance.now() - generated) / 1000;
    const size = statSync(file).size;
    const before = process.env.CLOBOT_BENCH_MEMORY_BEFORE;
    const load: number[] = [];
    const cases = new Map<string, CaseRound[]>();
    let report: ChildReport | undefined;
    const add = (name: string, r: CaseRound): void => void cases.set(name, [...(cases.get(name) ?? []), r]);
    for (let round = 0; round < ROUNDS; round++) {
      load.push(loadavg()[0]!);
      if (before !== undefined) add(`before: clobot backtest (${before})`, await commandRound(before, dir, file, `before${round}`));
      add('clobot backtest', await commandRound(REPO_ROOT, dir, file, `after${round}`));
      const inProcess = await inProcessRound(dir, file);
      report = inProcess.report;
      add('the replay in one process, no command line', inProcess);
    }
    const rows = [...cases].map(([name, rs]) => {
      const peak = rs.map((r) => r.replayMb);
      const launcher = rs.flatMap((r) => (r.launcherMb === undefined ? [] : [r.launcherMb]));
      return [name, spread(peak), Math.max(...peak) < GOAL_MB ? 'yes' : 'NO', spread(launcher), spread(rs.map((r) => r.cpuSeconds), 1), spread(rs.map((r) => r.seconds), 1)];
    });
    const r = report!;
    const mb = (kb: number): number => Math.round(kb / 1024);
    return {
      title: `Backtest memory: replaying a 1 GB recording (${ROUNDS} rounds, median (range))`,
      columns: ['case', 'replaying process peak RSS MB', `every round < ${GOAL_MB} MB`, 'launcher peak RSS MB', 'CPU s (all processes)', 'wall s'],
      rows,
      notes: [
        `${Math.round(size / 1e6)} MB of JSON lines, ${r.events.toLocaleString('en-US')} events: 20-level books of ${DATA.markets} markets (both tokens), band quoter (${r.orders} orders, ${r.fills} fills); generated in ${genSeconds.toFixed(0)} s, deleted afterwards; load at each round's start ${load.map((l) => l.toFixed(1)).join(', ')}`,
        'peak RSS: VmHWM of each process, read from /proc every 20 ms while it runs (startup included: node and the modules it loads, dist/ under `npm run bench:dist`); the launcher is bin/clobot.mjs starting the replaying node with its heap flags (bin/relaunch.mjs), loading nothing else',
        `in one process, at its largest sampled RSS (${mb(r.sampledRssKb)} MB): V8 heap committed ${mb(r.sampledHeapTotalKb)} MB, used ${mb(r.sampledHeapUsedKb)} MB; RSS at its start ${mb(r.startRssKb)} MB. RSS less the committed heap is node, loaded code and other threads (a \`.ts\` strategy through tsx adds its loader thread; from dist/ it is compiled in the replaying thread, src/strategy/compile-module.ts)`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
