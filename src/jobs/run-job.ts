import { runBacktest } from '../app/run-backtest.ts';
import { openBacktestData } from '../backtest/data-file.ts';
import { mergeData } from '../backtest/data-set.ts';
import type { BacktestSummary } from '../backtest/summary.ts';
import { writeResults } from '../backtest/write-results.ts';
import { BacktestTables } from '../backtest/result-tables.ts';
import { parseConfig } from '../config/load-config.ts';
import type { DataVerifier } from './data-hash.ts';
import type { BacktestJob } from './job.ts';

/**
 * Runs one job exactly as an in-process `clobot backtest` of the same point would (the same config
 * text, the same data, the same code): checks the data's hash, parses the config, replays, writes
 * the point's summary.json, report.html and its fills, orders and equity tables (Parquet), and
 * returns the summary. Every JobRunner adapter runs its jobs through this.
 *
 * `dir` is where the files go, the job's `outDir` unless told: a queue worker writes them to a
 * scratch folder of its own and carries them back to the submitter, which writes them to `outDir`.
 */
export async function runJob(job: BacktestJob, verifier: DataVerifier, dir: string = job.outDir): Promise<BacktestSummary> {
  for (const file of job.data) await verifier.verify(file);
  const config = parseConfig(job.config.text, job.config.file, process.env, { overrides: job.overrides });
  // one thread per job: the runner already keeps every core busy
  const files = [];
  for (const file of job.data) files.push(await openBacktestData(file.path, { decode: 'thread' }));
  const data = await mergeData(files);
  const tables = new BacktestTables(dir);
  let result;
  try {
    result = await runBacktest({ config, data, keepGoing: job.keepGoing, window: job.window, onBuilt: tables.onBuilt, onEvent: tables.onEvent, onStopped: tables.onStopped });
  } catch (err) {
    tables.discard();
    throw err;
  }
  writeResults(result, dir);
  tables.finish(result.curve);
  return result.summary;
}
