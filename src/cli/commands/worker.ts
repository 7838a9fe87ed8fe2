import type { Command } from 'commander';
import type { RedisTarget } from '../../core/redis-url.ts';
import { parseIntOption, parsePathOption, parseQueueOption } from '../options.ts';

interface WorkerOptions {
  queue: RedisTarget;
  queueName?: string;
  concurrency: number;
  dataDir?: string;
  lockMs?: number;
}

/**
 * `clobot worker --queue redis://host:port`: runs backtest jobs that `clobot backtest --sweep
 * --queue` puts on the queue, `--concurrency` at a time, each on its own thread, until Ctrl-C
 * (SIGINT) or SIGTERM: then the running jobs finish and the worker leaves (a second signal ends it
 * at once; its jobs then run again on another worker). One line per job on stderr.
 */
export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('run backtest jobs from a Redis queue (clobot backtest --sweep ... --queue), on any machine that can read the data')
    .requiredOption('--queue <url>', 'the Redis of the queue, redis://host:port[/db]', parseQueueOption)
    .option('--queue-name <name>', 'the BullMQ queue (default clobot-backtest)')
    .option('--concurrency <n>', 'jobs at once, each on its own thread (default 1)', parseIntOption(1, 256), 1)
    .option('--data-dir <dir>', "read each job's data file by name from this folder instead of the submitter's path (its SHA-256 is checked)", parsePathOption)
    .option('--lock-ms <ms>', "a job's lock; a dead worker's job runs again elsewhere after about twice this (default 30000)", parseIntOption(1_000, 3_600_000))
    .action(async (opts: WorkerOptions) => {
      const { startQueueWorker } = await import('../../jobs/bullmq-worker.ts');
      const say = (line: string): void => {
        process.stderr.write(`${line}\n`);
      };
      const worker = await startQueueWorker({
        target: opts.queue,
        queueName: opts.queueName,
        concurrency: opts.concurrency,
        dataDir: opts.dataDir,
        lockMs: opts.lockMs,
        onJob: (e) => {
          if (e.kind === 'started') say(`started ${e.point} (job ${e.id})`);
          else if (e.kind === 'done') say(`done ${e.point} in ${(e.ms / 1000).toFixed(1)} s`);
          else if (e.kind === 'failed') say(`failed ${e.point}: ${e.reason}`);
          else say(`warning: queue: ${e.message}`);
        },
      });
      say(`worker: taking jobs from ${opts.queue.display} queue ${opts.queueName ?? 'clobot-backtest'}, ${opts.concurrency} at a time (Ctrl-C to leave after the running jobs)`);
      await new Promise<void>((resolve) => {
        const leave = (): void => {
          process.off('SIGINT', leave);
          process.off('SIGTERM', leave);
          say('worker: leaving after the running jobs (again to stop now)');
          const now = (): void => process.exit(130);
          process.once('SIGINT', now);
          process.once('SIGTERM', now);
          worker.close().then(resolve, resolve);
        };
        process.on('SIGINT', leave);
        process.on('SIGTERM', leave);
      });
      say('worker: stopped');
    });
}
