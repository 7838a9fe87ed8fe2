import { join } from 'node:path';
import { runBacktest } from '../app/run-backtest.ts';
import { openBacktestData } from '../backtest/data-file.ts';
import { mergeData } from '../backtest/data-set.ts';
import type { BacktestSummary } from '../backtest/summary.ts';
import { writeResults } from '../backtest/write-results.ts';
import { BacktestTables } from '../backtest/result-tables.ts';
import { parseConfig } from '../config/load-config.ts';
import { createLogger, fieldLogger } from '../core/log.ts';
import type { DataVerifier } from './data-hash.ts';
import { JOB_LOG_FILE, type BacktestJob } from './job.ts';

export interface RunJobOptions {
  /** Where the files go; the job's `outDir` unless told. */
  readonly dir?: string;
  /** Aborted: the replay stops at the event reached (Ctrl-C). */
  readonly signal?: AbortSignal;
}


/**
 * Runs one job exactly as an in-process `clobot backtest` of the same point would (the same config
 * text, the same data, the same code): checks the data's hash, parses the config, replays, writes
 * the point's summary.json, report.html and its fills, orders and equity tables (Parquet), and
 * returns the summary. The run's log (`ctx.log` included) goes to `backtest.log` in the job's
 * folder, at the config's `logging.level` (each point its own file: points run side by side).
 * `options.signal` stops the replay at the event reached; the summary is then marked partial.
 * Every JobRunner adapter runs its jobs through this.
 */
export async function runJob(job: BacktestJob, verifier: DataVerifier, options: RunJobOptions = {}): Promise<BacktestSummary> {
  const dir = options.dir ?? job.outDir;
  for (const file of job.data) await verifier.verify(file);
  const config = parseConfig(job.config.text, job.config.file, process.env, { overrides: job.overrides });
  // one thread per job: the runner already keeps every core busy
  const files = [];
  for (const file of job.data) files.push(await openBacktestData(file.path, { decode: 'thread' }));
  const data = await mergeData(files);
  const tables = new BacktestTables(dir);
  const logger = createLogger({ level: config.logging.level, file: join(dir, JOB_LOG_FILE), stdout: false });
  let result;
  try {
    result = await runBacktest({
      config,
      data,
      log: fieldLogger(logger),
      keepGoing: job.keepGoing,
      window: job.window,
      signal: options.signal,
      onBuilt: tables.onBuilt,
      onEvent: tables.onEvent,
      onStopped: tables.onStopped,
    });
  } catch (err) {
    tables.discard();
    throw err;
  } finally {
    logger.flush();
  }
  writeResults(result, dir);
  tables.finish(result.curve);
  return result.summary;
}
