/**
 * Peak resident memory of a backtest replaying a 1 GB recording (JSON lines, 20-level books,
 * the band quoter): the recording is generated into a temporary directory, replayed by a fresh
 * process (bench/backtest-memory-child.ts, or its compiled .js under `npm run bench:dist`) that
 * reports its own peak RSS, and deleted. The replay streams the file, so memory should not grow
 * with it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticEvents, syntheticHeader, type SyntheticOptions } from '../src/backtest/synthetic-recording.ts';
import { createRecordingWriter } from '../src/data/recording/writer.ts';
import { childScript } from './bench-paths.ts';
import type { BenchTable } from './table.ts';

const TARGET_BYTES = 1024 ** 3;
const GOAL_MB = 200; // issue 27 point 2
const DATA: SyntheticOptions = { seed: 9, markets: 6, depth: 20, events: Number.MAX_SAFE_INTEGER, meanGapMs: 100, moveShare: 0.05, tradeShare: 0.05 };

const CONFIG = `
mode: backtest
name: memory
data:
  markets: { filter: { maxCount: 6 } }
strategies:
  - id: bq
    module: strategies/02-band-quoter.ts
    params: { size: 10, halfSpreadTicks: 2, requoteTicks: 2 }
backtest:
  latencyMs: 50
`;

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
    const configPath = join(dir, 'memory.yaml');
    writeFileSync(configPath, CONFIG);
    const child = spawnSync(process.execPath, [...childScript('./backtest-memory-child', import.meta.url), configPath, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (child.status !== 0) throw new Error(`replay failed (${child.status}): ${child.stderr.slice(0, 500)}`);
    const r = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { events: number; orders: number; fills: number; seconds: number; startRssKb: number; maxRssKb: number; heapUsedKb: number; sampledRssKb: number; sampledHeapTotalKb: number; sampledHeapUsedKb: number };
    const peakMb = r.maxRssKb / 1024;
    return {
      title: 'Backtest memory: replaying a 1 GB recording',
      columns: ['recording MB', 'events', 'orders', 'fills', 'replay s', 'events/s', 'RSS at start MB', 'peak RSS MB', 'goal MB', 'sampled peak: RSS / heap committed / heap used MB'],
      rows: [[Math.round(size / 1e6), r.events, r.orders, r.fills, Number(r.seconds.toFixed(1)), Math.round(r.events / r.seconds), Math.round(r.startRssKb / 1024), Math.round(peakMb), GOAL_MB, [r.sampledRssKb, r.sampledHeapTotalKb, r.sampledHeapUsedKb].map((kb) => Math.round(kb / 1024)).join(' / ')]],
      notes: [
        `JSON lines, 20-level books of ${DATA.markets} markets (both tokens), band quoter; generated in ${genSeconds.toFixed(0)} s, deleted afterwards`,
        `peak RSS of the replaying process (process.resourceUsage().maxRSS), its startup included (node and the modules it loads: compiled by tsx from src/ under \`npm run bench\`, dist/'s JavaScript under \`npm run bench:dist\`); ${peakMb <= GOAL_MB ? 'within' : 'OVER'} the goal`,
        'sampled peak: the largest RSS seen by a 20 ms sampler in the replaying process, with the V8 heap committed and used at that moment; RSS less the committed heap is node, loaded code and other threads (a `.ts` strategy adds tsx\'s loader thread)',
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
