import { parentPort } from 'node:worker_threads';
import { loadConfig } from '../config/load-config.ts';
import { openBacktestData } from '../backtest/data-file.ts';
import { runBacktest } from './run-backtest.ts';
import type { SweepJob, SweepReply } from './sweep-protocol.ts';
import { writeResults } from '../backtest/write-results.ts';

/**
 * A sweep worker: runs grid points one at a time, each exactly as an in-process run would (the
 * same config file, the same recording read from disk, the same code), writes the point's files
 * and answers with its summary.
 */
const port = parentPort;
if (!port) throw new Error('sweep-worker.ts runs as a worker thread');

port.on('message', (job: SweepJob) => {
  void (async () => {
    let reply: SweepReply;
    try {
      const config = loadConfig(job.configPath);
      // one thread per point: the sweep already keeps every core busy
      const data = await openBacktestData(job.dataPath, { decode: 'thread' });
      const result = await runBacktest({ config, data, overrides: job.overrides, keepGoing: job.keepGoing });
      writeResults(result, job.outDir);
      reply = { kind: 'done', index: job.index, summary: result.summary };
    } catch (err) {
      reply = { kind: 'failed', index: job.index, name: err instanceof Error ? err.name : 'Error', message: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
  })();
});
