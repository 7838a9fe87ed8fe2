/**
 * Optimiser throughput: trials per minute of `optimize()` (src/optimize/optimizer.ts) on this
 * machine, for a fixed recording (synthetic, 2 markets, 3,000 events over ~5 minutes, a rise then
 * a fall) and a fixed space (a directional strategy's `lean` in [-1, 1] and `size` in 5..50 by 5),
 * walk-forward with 2 folds, 12 TPE trials per fold in batches of 4, on the local worker-thread
 * pool (one thread per core). Each trial is a whole backtest of its window writing its summary,
 * report, log and Parquet tables; the out-of-sample runs are counted as trials too. Three rounds,
 * the pool's threads reused within a round; median and range.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { syntheticEvents, syntheticHeader, type SyntheticOptions } from '../src/backtest/synthetic-recording.ts';
import { createRecordingWriter } from '../src/data/recording/writer.ts';
import { LocalPoolRunner } from '../src/jobs/local-pool.ts';
import { optimize } from '../src/optimize/optimizer.ts';
import { parseSearchSpace } from '../src/optimize/space.ts';
import { dataSpan, walkForwardFolds } from '../src/optimize/walk-forward.ts';
import type { BenchTable } from './table.ts';

const API = fileURLToPath(new URL('../src/index.ts', import.meta.url));
const DATA: SyntheticOptions = { seed: 3, markets: 2, depth: 5, events: 3000, meanGapMs: 100, moveShare: 0.1, tradeShare: 0.05, trends: [0.5, -0.5] };
const SPACE = 'params:\n  lean: { min: -1, max: 1 }\n  size: { min: 5, max: 50, step: 5 }\n';
const STRATEGY = `import { defineStrategy, qty, z } from ${JSON.stringify(API)};
export default defineStrategy({
  name: 'lean',
  params: z.object({ lean: z.number().min(-1).max(1).default(0), size: z.number().positive().default(20) }).strict(),
  onBook({ ctx, market }) {
    const lean = ctx.params.lean;
    if (Math.abs(lean) < 0.1 || market.outcomeIndex !== (lean > 0 ? 0 : 1) || market.bestAsk === undefined) return undefined;
    if (ctx.openOrders(market.tokenId).length > 0 || ctx.position(market.tokenId).size > 0) return undefined;
    return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price: market.bestAsk, size: qty(String(Math.round(Math.abs(lean) * ctx.params.size) + 5)), orderType: 'FAK' };
  },
});
`;
const CONFIG = 'mode: backtest\nname: lean\ndata:\n  markets: { filter: { maxCount: 2 } }\nstrategies:\n  - id: lean\n    module: ./lean.ts\n    params: { lean: 0 }\n';
const ROUNDS = 3;
const FOLDS = 2;
const TRIALS = 12;

export async function run(): Promise<BenchTable> {
  const dir = mkdtempSync(join(tmpdir(), 'clobot-bench-opt-'));
  try {
    writeFileSync(join(dir, 'lean.ts'), STRATEGY);
    const configPath = join(dir, 'lean.yaml');
    writeFileSync(configPath, CONFIG);
    const data = join(dir, 'regimes.bin');
    const writer = createRecordingWriter(data, syntheticHeader(DATA), { form: 'binary' });
    for (const e of syntheticEvents(DATA)) writer.write(e);
    await writer.close();
    const folds = walkForwardFolds(await dataSpan([data]), FOLDS);
    const space = parseSearchSpace(SPACE, 'space.yaml', ['lean']);
    const rates: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const runner = new LocalPoolRunner();
      const started = performance.now();
      const result = await optimize({ configPath, dataPaths: [data], space, sets: [], folds, objective: 'pnl', minFills: 1, sampler: 'tpe', trials: TRIALS, batch: 4, startup: 4, seed: 1 + r, outDir: join(dir, `out-${r}`), runner });
      const minutes = (performance.now() - started) / 60_000;
      await runner.close();
      const runs = result.folds.reduce((n, f) => n + f.trials.filter((t) => t.repeatOf === null).length + (f.outOfSample ? 1 : 0), 0);
      rates.push(runs / minutes);
    }
    const sorted = [...rates].sort((a, b) => a - b);
    return {
      title: `optimiser: trials per minute (${FOLDS} folds × ${TRIALS} TPE trials + out-of-sample runs, ${DATA.events!.toLocaleString('en-US')}-event recording, ${availableParallelism()} worker threads)`,
      columns: ['what', 'median', 'min', 'max'],
      rows: [['trials per minute', sorted[1]!, sorted[0]!, sorted[2]!]],
      notes: [`${ROUNDS} rounds, seeds 1..${ROUNDS}; first round includes loading the code into the threads; load average at the end ${loadavg()[0]!.toFixed(1)}`],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
