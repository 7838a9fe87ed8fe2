// Profiling aid (not a benchmark): one backtest of the backtest bench's synthetic recording (binary
// form, decoded on the main thread) with its band quoter, timed per event and by CPU time.
// Run: node bin/run-ts.mjs bench/children/backtest-profile.ts (from dist/: node dist/bench/children/backtest-profile.js)
// Env: EVENTS (default 200000), FORM (binary or text, default binary), RUNS (default 2; the last is reported),
// CPU_PROFILE=<file.cpuprofile> (a V8 CPU profile of the last run only, without the recording's generation
// and the earlier runs; open it in Chrome DevTools or speedscope), HEAP_PROFILE=<file.heapprofile> (V8's
// sampling allocation profile of the last run: who makes the per-event garbage).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
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
const CPU_PROFILE = process.env.CPU_PROFILE;
const HEAP_PROFILE = process.env.HEAP_PROFILE;
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
    const last = run === RUNS - 1;
    const session = last && (CPU_PROFILE !== undefined || HEAP_PROFILE !== undefined) ? new Session() : undefined;
    if (session) {
      session.connect();
      if (CPU_PROFILE !== undefined) {
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: Number(process.env.PROFILE_INTERVAL_US ?? 200) });
        await session.post('Profiler.start');
      }
      if (HEAP_PROFILE !== undefined) await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    }
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    const result = await runBacktest({ config, data });
    const wall = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    if (session) {
      if (CPU_PROFILE !== undefined) writeFileSync(CPU_PROFILE, JSON.stringify((await session.post('Profiler.stop')).profile));
      if (HEAP_PROFILE !== undefined) writeFileSync(HEAP_PROFILE, JSON.stringify((await session.post('HeapProfiler.stopSampling')).profile));
      session.disconnect();
    }
    const events = result.metrics.events;
    if (run === RUNS - 1) {
      console.log(`${FORM}: ${events} events, ${result.summary.orders.submitted} orders, ${result.metrics.fills} fills`);
      console.log(`wall ${(wall / 1000).toFixed(2)} s (${Math.round(events / (wall / 1000))} events/s), CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s = ${((cpu.user + cpu.system) / events).toFixed(2)} µs CPU per event`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
