import type { RedisTarget } from '../core/redis-url.ts';
import type { JobRunner } from '../jobs/job-runner.ts';

/** How a command's jobs are run: the flags every job-running command (`backtest --sweep`, `optimize`) shares. */
export interface RunnerFlags {
  /** Worker threads on this machine (default: one per core). */
  readonly workers?: number;
  /** `--queue`: run the jobs on `clobot worker` processes through this Redis (docs/cluster.md). */
  readonly queue?: RedisTarget;
  readonly queueName?: string;
  /** The command and what its jobs are, for the queue's lines: `sweep`, `points`. */
  readonly command?: string;
  readonly noun?: string;
  /** The command's progress bar, updated with the queue's figures; undefined: lines on stderr instead. */
  readonly bar?: { update(payload: object): void };
  /** The queue's figures as the bar shows them, kept up to date here. */
  readonly shown?: Record<'active' | 'waiting' | 'workers', string>;
}

/**
 * The one place a command picks its JobRunner (src/jobs/job-runner.ts): worker threads on this
 * machine, or with `--queue` a BullMQ queue of `clobot worker` processes on any machine, so every
 * command that runs jobs gets both.
 */
export async function chooseJobRunner(flags: RunnerFlags): Promise<JobRunner> {
  if (flags.queue !== undefined) return queueRunner(flags.queue, flags);
  const { LocalPoolRunner } = await import('../jobs/local-pool.ts');
  return new LocalPoolRunner({ workers: flags.workers });
}

/**
 * The runner with --queue: progress from the queue on the bar, or (no terminal) one line when the
 * jobs are queued and one whenever the number of connected workers changes.
 */
async function queueRunner(target: RedisTarget, flags: RunnerFlags): Promise<JobRunner> {
  const { BullQueueRunner } = await import('../jobs/bullmq-runner.ts');
  const { queueName, bar } = flags;
  const command = flags.command ?? 'jobs';
  const noun = flags.noun ?? 'jobs';
  const shown = flags.shown ?? { active: '-', waiting: '-', workers: '-' };
  let workers: number | undefined;
  return new BullQueueRunner({
    target,
    queueName,
    onQueued: (count) => {
      if (bar === undefined) process.stderr.write(`${command}: ${count} ${noun} queued on ${target.display} queue ${queueName ?? 'clobot-backtest'}; run \`clobot worker --queue ${target.display}\` where the data is\n`);
    },
    onStatus: (s) => {
      Object.assign(shown, { active: String(s.active), waiting: String(s.waiting), workers: String(s.workers) });
      bar?.update(shown);
      if (bar === undefined && s.workers !== workers) process.stderr.write(`${command}: ${s.done}/${s.total} ${noun} done, ${s.workers} worker(s) connected\n`);
      workers = s.workers;
    },
  });
}
