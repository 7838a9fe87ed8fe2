import { join, relative, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { loadCheckedConfig } from '../../config/load-config.ts';
import type { ConfigOverride } from '../../config/config-overrides.ts';
import { RunEndError, StrategyError } from '../../core/errors.ts';
import { OBJECTIVE_NAMES, type ObjectiveName } from '../../backtest/objectives.ts';
import { expandDataPaths } from '../../backtest/data-paths.ts';
import { SAMPLER_NAMES, type SamplerName } from '../../optimize/sampler.ts';
import type { SearchSpace } from '../../optimize/space.ts';
import type { OptimizeSummary } from '../../optimize/optimize-summary.ts';
import { collectDataPaths, collectSet, parseIntOption, parseObjectiveOption, parsePathOption, parseQueueOption, parseTimeOption, SET_HELP } from '../options.ts';
import type { RedisTarget } from '../../core/redis-url.ts';
import { renderTable } from '../table.ts';
import { UsageError } from '../usage-error.ts';
import { chooseJobRunner } from '../job-runner-choice.ts';

interface OptimizeOptions {
  data: string[];
  space: string;
  out?: string;
  set: ConfigOverride[];
  objective: ObjectiveName;
  minFills: number;
  trials: number;
  folds: number;
  walkForward: boolean;
  sampler: SamplerName;
  startup: number;
  batch: number;
  seed: number;
  workers?: number;
  queue?: RedisTarget;
  queueName?: string;
  from?: number;
  to?: number;
  keepGoing?: boolean;
  progress?: boolean;
}



function parseSampler(value: string): string {
  if (!(SAMPLER_NAMES as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected ${SAMPLER_NAMES.join(' or ')}, got '${value}'`);
  return value;
}


/**
 * `clobot optimize <config> --data <file…> --space <file>`: searches the space (src/optimize/)
 * for the point that scores best by `--objective`, walk-forward by default: the data cut into
 * `--folds + 1` windows, each fold searching one window and scoring its best point on the next.
 * Trials are backtest jobs on worker threads. Prints the per-fold in-sample / out-of-sample table
 * and writes optimize.json, report.html and each trial's own summary under `--out`.
 */
export function registerOptimize(program: Command): void {
  program
    .command('optimize')
    .description('search config keys for the best objective (TPE or random), walk-forward checked on data the search never saw')
    .argument('<config>', 'path to the YAML run config', parsePathOption)
    .requiredOption('--data <file...>', 'the data (recordings or run stores; several files or a quoted glob replay as one stream)', collectDataPaths)
    .requiredOption('--space <file>', 'the search space: a YAML file of config keys with ranges or choices (docs/research.md)', parsePathOption)
    .option('--out <dir>', 'output directory (default backtest/optimize/<config name>)', parsePathOption)
    .option('--set <key=value>', SET_HELP, collectSet, [])
    .option('--objective <name>', `what to maximise (or minimise): ${OBJECTIVE_NAMES.join(', ')}`, parseObjectiveOption, 'pnlPerDrawdown')
    .option('--min-fills <n>', 'a trial with fewer fills has no score', parseIntOption(0), 10)
    .option('--trials <n>', 'trials per fold', parseIntOption(1, 100_000), 30)
    .option('--folds <n>', 'walk-forward folds: the data cut into n + 1 windows; fit on one, score on the next', parseIntOption(1, 100), 3)
    .option('--no-walk-forward', 'one search on the whole data, nothing held out (in-sample scores only)')
    .option('--sampler <name>', `the search: ${SAMPLER_NAMES.join(' or ')}`, parseSampler, 'tpe')
    .option('--startup <n>', 'uniform trials per fold before TPE uses its model', parseIntOption(2, 100_000), 10)
    .option('--batch <n>', 'points proposed together per fold (results depend on it, not on --workers)', parseIntOption(1, 256), 4)
    .option('--seed <n>', 'the search\'s seed: the same seed gives the same trials and best point', parseIntOption(0, 2 ** 32 - 1), 1)
    .option('--workers <n>', 'worker threads (default: one per core)', parseIntOption(1, 256))
    .option('--queue <url>', 'run the trials on `clobot worker` processes through this Redis, redis://host:port[/db] (docs/cluster.md)', parseQueueOption)
    .option('--queue-name <name>', 'the BullMQ queue of --queue (default clobot-backtest)')
    .option('--from <time>', 'optimise on the data from this time on (over backtest.from)', parseTimeOption)
    .option('--to <time>', 'optimise on the data up to this time, not included (over backtest.to)', parseTimeOption)
    .option('--keep-going', 'a strategy that throws does not stop a trial (backtest.keepGoing)')
    .option('--no-progress', 'no progress bar')
    .action(async (configPath: string, opts: OptimizeOptions) => {
      if (opts.queue !== undefined && opts.workers !== undefined) throw new UsageError('--workers: the threads of trials on this machine; with --queue, each `clobot worker --concurrency` sets its own');
      if (opts.queueName !== undefined && opts.queue === undefined) throw new UsageError('--queue-name: names the queue of --queue; give --queue too');
      const config = await loadCheckedConfig(configPath, process.env, { requireStrategy: true, overrides: opts.set });
      for (const warning of config.source.warnings) process.stderr.write(`warning: ${warning}\n`);
      const outDir = resolve(opts.out ?? join('backtest', 'optimize', config.name));
      const window = { from: opts.from ?? config.backtest.from, to: opts.to ?? config.backtest.to };
      if (window.from !== undefined && window.to !== undefined && window.from >= window.to) throw new UsageError(`--to: must be after --from (${new Date(window.from).toISOString()})`);
      const { loadSearchSpace } = await import('../../optimize/space.ts');
      const ids = config.strategies.map((s) => s.id);
      const space = loadSearchSpace(opts.space, ids, config.strategies.filter((s) => s.enabled).map((s) => s.id));
      await checkSpaceCorners(configPath, space, opts.set);
      const dataPaths = expandDataPaths(opts.data);
      // data sampled less often than a book may age (imported quotes): every trial would meet stale books
      const { openDataSet } = await import('../../backtest/data-set.ts');
      const { staleDataWarning } = await import('../../backtest/stale-data.ts');
      const stale = staleDataWarning((await openDataSet(dataPaths)).header, config.risk);
      if (stale !== undefined) process.stderr.write(`warning: ${stale}\n`);
      const { dataSpan, walkForwardFolds } = await import('../../optimize/walk-forward.ts');
      const folds = walkForwardFolds(await dataSpan(dataPaths, window), opts.walkForward ? opts.folds : 0);
      const { optimize } = await import('../../optimize/optimizer.ts');
      const { buildOptimizeSummary } = await import('../../optimize/optimize-summary.ts');
      const { writeOptimizeResults } = await import('../../optimize/write-optimize.ts');
      const total = opts.trials * folds.length;
      // the queue's figures go to stderr lines (the bar counts trials); the first lines say where they run
      const runner = await chooseJobRunner({ workers: opts.workers, queue: opts.queue, queueName: opts.queueName, command: 'optimize', noun: 'trials' });
      process.stderr.write(
        `optimize: ${opts.objective} over ${space.params.map((p) => p.name).join(', ')}; ${opts.sampler}, ${opts.trials} trials × ${folds.length} fold(s)` +
          `${opts.walkForward ? ' (walk-forward)' : ' (no walk-forward)'}, seed ${opts.seed}\n`,
      );
      const showProgress = opts.progress !== false && process.stderr.isTTY === true;
      const { SingleBar, Presets } = (await import('cli-progress')).default;
      const bar = showProgress ? new SingleBar({ stream: process.stderr, format: 'optimize [{bar}] {value}/{total} trials', hideCursor: true }, Presets.shades_classic) : undefined;
      bar?.start(total, 0);
      const interrupt = new AbortController();
      const onInterrupt = (): void => {
        bar?.stop();
        process.stderr.write('interrupted: stopping the optimiser (running trials are dropped, finished ones kept); writing the partial results\n');
        interrupt.abort();
      };
      process.once('SIGINT', onInterrupt);
      let run;
      try {
        run = await optimize({
          configPath,
          dataPaths,
          space,
          sets: opts.set,
          folds,
          objective: opts.objective,
          minFills: opts.minFills,
          sampler: opts.sampler,
          trials: opts.trials,
          batch: opts.batch,
          startup: opts.startup,
          seed: opts.seed,
          keepGoing: opts.keepGoing,
          outDir,
          runner,
          signal: interrupt.signal,
          onTrial: (_t, done) => bar?.update(done),
        });
      } finally {
        process.off('SIGINT', onInterrupt);
        bar?.stop();
        await runner.close?.();
      }
      const summary = buildOptimizeSummary({
        run,
        space,
        config: relative(process.cwd(), resolve(configPath)) || configPath,
        data: dataPaths,
        sets: opts.set.map((o) => `${o.key}=${String(o.value)}`),
        objective: opts.objective,
        minFills: opts.minFills,
        sampler: opts.sampler,
        seed: opts.seed,
        trialsPerFold: opts.trials,
        batch: opts.batch,
        startup: opts.startup,
        walkForward: opts.walkForward,
      });
      const written = writeOptimizeResults(summary, outDir);
      process.stdout.write(resultText(summary, space) + '\n');
      process.stdout.write(`wrote ${written.summaryPath}\nwrote ${written.reportPath}\n`);
      if (summary.partial) {
        const finished = summary.trials.filter((t) => !t.partial).length;
        throw new RunEndError(`interrupted: partial results (${finished} of ${total} trials finished) in ${outDir}`, 130);
      }
    });
}

/**
 * Every param's bounds and every choice, each with the others at their first value, checked as the
 * YAML is before any trial runs: a space the config cannot take is one error naming the key.
 */
async function checkSpaceCorners(configPath: string, space: SearchSpace, sets: readonly ConfigOverride[]): Promise<void> {
  const { pointOverrides, steppedMax } = await import('../../optimize/space.ts');
  const base = space.params.map((p) => (p.kind === 'choice' ? p.choices[0]! : p.min));
  const points = [base];
  space.params.forEach((p, i) => {
    const values = p.kind === 'choice' ? p.choices.slice(1) : [steppedMax(p)];
    for (const v of values) points.push(base.map((b, j) => (j === i ? v : b)));
  });
  for (const point of points) {
    try {
      await loadCheckedConfig(configPath, process.env, { requireStrategy: true, overrides: [...sets, ...pointOverrides(space, point)] });
    } catch (err) {
      if (err instanceof StrategyError) throw new UsageError(err.message);
      throw err;
    }
  }
}

function resultText(s: OptimizeSummary, space: SearchSpace): string {
  const fmt = (score: string | null): string => (score === null ? 'n/a' : Number(Number(score).toPrecision(4)).toString());
  const rows = s.folds.map((f) => [
    String(f.number),
    `${f.inSample.from.replace('.000Z', 'Z')} → ${f.inSample.to.replace('.000Z', 'Z')}`,
    String(f.trials),
    f.best ? space.params.map((p) => `${p.name}=${String(f.best!.params[p.name])}`).join(' ') : '-',
    fmt(f.best?.score ?? null),
    f.outOfSample === null ? '-' : f.outOfSampleResult === null ? 'not run' : f.outOfSampleResult.score !== null ? fmt(f.outOfSampleResult.score) : `n/a (${f.outOfSampleResult.reason})`,
    f.outOfSampleResult ? String(f.outOfSampleResult.fills) : '-',
  ]);
  const lines = [
    renderTable(['fold', 'in-sample window', 'trials', 'best point', `in-sample ${s.objective.name}`, `out-of-sample ${s.objective.name}`, 'oos fills'], rows, [false, false, true, false, true, true, true]),
  ];
  if (s.overall.foldsScored > 0) {
    lines.push(`mean over ${s.overall.foldsScored} fold(s): in-sample ${Number(s.overall.meanInSample!.toPrecision(4))}, out-of-sample ${Number(s.overall.meanOutOfSample!.toPrecision(4))}`);
  }
  lines.push(`importance: ${s.importance.map((x) => `${x.name} ${x.importance === null ? 'n/a' : `${Math.round(x.importance * 100)}%`}`).join(', ')}`);
  if (s.best) lines.push(`best point (fold ${s.best.fold}, the most recent window): ${s.best.sets.map((x) => `--set ${x}`).join(' ')}`);
  else lines.push('no trial has a score (see each trial\'s reason in optimize.json)');
  return lines.join('\n');
}
