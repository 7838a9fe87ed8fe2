// Profiling aid (not a benchmark): one backtest of the backtest bench's synthetic recording (binary
// form, decoded on the main thread) with its band quoter, timed per event and by CPU time.
// Run: node --cpu-prof bin/run-ts.mjs bench/children/backtest-profile.ts
// Env: EVENTS (default 200000), FORM (binary or text, default binary), RUNS (default 2; the last is reported).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { openBacktestData } from '../../src/backtest/data-file.ts';
import { syntheticEvents, syntheticHeader } from '../../src/backtest/synthetic-recording.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';
import { CONFIG, DATA as BENCH_DATA } from '../backtest.bench.ts';

const EVENTS = Number(process.env.EVENTS ?? 200_000);
const FORM = process.env.FORM === 'text' ? 'text' : 'binary';
const RUNS = Number(process.env.RUNS ?? 2);
const DATA = { ...BENCH_DATA, events: EVENTS };

const dir = mkdtempSync(join(tmpdir(), 'clobot-bt-profile-'));
try {
  const path = join(dir, FORM === 'text' ? 'books.jsonl' : 'books.bin');
  const writer = createRecordingWriter(path, syntheticHeader(DATA), { form: FORM });
  for (const event of syntheticEvents(DATA)) writer.write(event);
  await writer.close();
  const config = parseConfig(CONFIG, join(dir, 'bench.yaml'), {}, { cwd: dir, repoRoot: process.cwd() });
  for (let run = 0; run < RUNS; run++) {
    const data = await openBacktestData(path, { decode: 'thread' });
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    const result = await runBacktest({ config, data });
    const wall = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    const events = result.metrics.events;
    if (run === RUNS - 1) {
      console.log(`${FORM}: ${events} events, ${result.summary.orders.submitted} orders, ${result.metrics.fills} fills`);
      console.log(`wall ${(wall / 1000).toFixed(2)} s (${Math.round(events / (wall / 1000))} events/s), CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s = ${((cpu.user + cpu.system) / events).toFixed(2)} µs CPU per event`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
