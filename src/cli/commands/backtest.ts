import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { loadCheckedConfig } from '../../config/load-config.ts';
import type { RunConfig } from '../../config/run-config.ts';
import { RunEndError, StrategyError } from '../../core/errors.ts';
import { createLogger, fieldLogger } from '../../core/log.ts';
import { UsageError } from '../usage-error.ts';
import { collectDataPaths, collectSet, parseIntOption, parseObjectiveOption, parsePathOption, parseQueueOption, parseTimeOption, SET_HELP } from '../options.ts';
import type { RedisTarget } from '../../core/redis-url.ts';
import type { ConfigOverride } from '../../config/config-overrides.ts';
import { renderTable } from '../table.ts';
import { fmtCounts, fmtMoney, fmtPercent, fmtRatio, fmtStrategyMetrics, summaryRows } from '../../backtest/summary-rows.ts';
import { OBJECTIVE_NAMES, type ObjectiveName } from '../../backtest/objectives.ts';
import type { DataWindow } from '../../backtest/data-window.ts';
import { DECODE_PLACES, type DecodePlace } from '../../backtest/data-file.ts';
import { chooseJobRunner } from '../job-runner-choice.ts';
import { JOB_LOG_FILE } from '../../jobs/job.ts';

interface BacktestOptions {
  data: string[];
  out?: string;
  sweep: string[];
  set: ConfigOverride[];
  sort: string;
  workers?: number;
  decode: DecodePlace;
  progress?: boolean;
  keepGoing?: boolean;
  from?: number;
  to?: number;
  queue?: RedisTarget;
  queueName?: string;
}


function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}


function parseDecode(value: string): string {
  if (!(DECODE_PLACES as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected ${DECODE_PLACES.join(', ')}, got '${value}'`);
  return value;
}



/**
 * `clobot backtest <config> --data <file…>`: replays recordings (one, several or a glob, as one
 * stream in time order, see src/backtest/data-set.ts) through the config's strategies
 * in virtual time (the same engine as live, the backtest execution edge as its venue), shows a
 * progress bar on stderr, prints a summary table and writes `<out>/summary.json` and
 * `<out>/report.html`. With `--sweep param=v1,v2,...` (repeatable) it runs the whole grid on
 * worker threads, prints the points sorted by `--sort`, and writes one summary and report per point.
 */
export function registerBacktest(program: Command): void {
  program
    .command('backtest')
    .description('replay recorded market data through a config\'s strategies (simulated fills, virtual time)')
    .argument('<config>', 'path to the YAML run config', parsePathOption)
    .requiredOption(
      '--data <file...>',
      "the data to replay: recordings (clobot record / clobot import) or run stores (clobot run --store); several files or a quoted glob ('rec/*.jsonl.gz') replay as one stream in time order",
      collectDataPaths,
    )
    .option('--out <dir>', 'output directory (default backtest/out/<config name>)', parsePathOption)
    .option('--set <key=value>', SET_HELP, collectSet, [])
    .option('--sweep <key=values>', 'sweep any config key over values, e.g. mm.size=5,10,20 or backtest.queueModel=conservative,optimistic (repeatable)', collect, [])
    .option('--sort <metric>', `sweep table order: ${OBJECTIVE_NAMES.join(', ')}`, parseObjectiveOption, 'pnl')
    .option('--workers <n>', 'sweep worker threads (default: one per core)', parseIntOption(1, 256))
    .option('--queue <url>', "run the sweep's points on `clobot worker` processes through this Redis, redis://host:port[/db] (docs/cluster.md)", parseQueueOption)
    .option('--queue-name <name>', 'the BullMQ queue of --queue (default clobot-backtest)')
    .option('--decode <where>', 'decode the recording on a worker thread or this one: auto, worker, thread', parseDecode, 'auto')
    .option('--from <time>', 'replay the data from this time on (ISO 8601 with a zone, a date, or epoch ms; over backtest.from)', parseTimeOption)
    .option('--to <time>', 'replay the data up to this time, not included (over backtest.to)', parseTimeOption)
    .option('--no-progress', 'no progress bar')
    .option('--keep-going', 'a strategy that throws does not stop the backtest: the event is skipped and the fault counted (backtest.keepGoing)')
    .action(async (configPath: string, opts: BacktestOptions) => {
      const config = await loadCheckedConfig(configPath, process.env, { requireStrategy: true, overrides: opts.set });
      for (const warning of config.source.warnings) process.stderr.write(`warning: ${warning}\n`);
      const outDir = resolve(opts.out ?? join('backtest', 'out', config.name));
      const window = { from: opts.from ?? config.backtest.from, to: opts.to ?? config.backtest.to };
      if (window.from !== undefined && window.to !== undefined && window.from >= window.to) {
        const name = (flag: 'from' | 'to') => (opts[flag] !== undefined ? `--${flag}` : `backtest.${flag}`);
        throw new UsageError(`${name('to')}: must be after ${name('from')} (${new Date(window.from).toISOString()}), was ${new Date(window.to).toISOString()}`);
      }
      if (opts.queue !== undefined && opts.sweep.length === 0) throw new UsageError('--queue: runs the points of a sweep on workers; give --sweep too (a single backtest runs here)');
      if (opts.queue !== undefined && opts.workers !== undefined) throw new UsageError('--workers: the threads of a sweep on this machine; with --queue, each `clobot worker --concurrency` sets its own');
      if (opts.queueName !== undefined && opts.queue === undefined) throw new UsageError('--queue-name: names the queue of --queue; give --queue too');
      const { openDataSet } = await import('../../backtest/data-set.ts');
      const data = await openDataSet(opts.data, { decode: opts.decode });
      // data sampled less often than a book may age (imported quotes): said before the run, not only after it
      const { staleDataWarning } = await import('../../backtest/stale-data.ts');
      const stale = staleDataWarning(data.header, config.risk);
      if (stale !== undefined) process.stderr.write(`warning: ${stale}\n`);
      const showProgress = opts.progress !== false && process.stderr.isTTY === true;
      if (opts.sweep.length > 0) {
        await sweep(configPath, config, data.files.map((f) => f.path), opts, outDir, showProgress, window);
        return;
      }

      const { runBacktest } = await import('../../app/run-backtest.ts');
      const { writeResults } = await import('../../backtest/write-results.ts');
      const { SingleBar, Presets } = (await import('cli-progress')).default;
      // the run's log (ctx.log included): the config's logging.file, else backtest.log beside summary.json
      const logFile = config.logging.file ?? join(outDir, JOB_LOG_FILE);
      const logger = createLogger({ level: config.logging.level, file: logFile, stdout: false });
      const bar = showProgress
        ? new SingleBar(
            { stream: process.stderr, format: 'replay [{bar}] {percentage}% | {events} events | {time}', hideCursor: true, etaBuffer: 50 },
            Presets.shades_classic,
          )
        : undefined;
      bar?.start(Math.max(1, data.bytes), 0, { events: '0', time: '' });
      let result;
      const began = performance.now();
      // Ctrl-C stops the replay at the event reached; the partial summary and report are written
      const interrupt = new AbortController();
      // (once only: Ctrl-C in a terminal also reaches the launcher, which passes it on, bin/relaunch.mjs)
      const onInterrupt = (): void => {
        if (interrupt.signal.aborted) return;
        bar?.stop();
        process.stderr.write('interrupted: stopping the backtest at the event reached; writing the partial summary and report\n');
        interrupt.abort();
      };
      process.on('SIGINT', onInterrupt);
      // fills, orders and the equity curve as Parquet beside summary.json, written as the run goes
      const { BacktestTables } = await import('../../backtest/result-tables.ts');
      const tables = new BacktestTables(outDir);
      try {
        // a strategy that throws ends this with BacktestFaultError (its stack), unless it keeps going
        result = await runBacktest({
          config,
          data,
          log: fieldLogger(logger),
          onProgress: (p) => bar?.update(p.bytes ?? 0, { events: p.events.toLocaleString('en-US'), time: new Date(p.tsInit).toISOString().replace('.000Z', 'Z') }),
          progressEvery: 20_000,
          keepGoing: opts.keepGoing,
          window,
          signal: interrupt.signal,
          onBuilt: tables.onBuilt,
          onEvent: tables.onEvent,
          onStopped: tables.onStopped,
        });
        if (!interrupt.signal.aborted) bar?.update(data.bytes);
      } catch (err) {
        tables.discard();
        throw err;
      } finally {
        // once interrupted, a repeated SIGINT is taken as the same one until the partial results are written
        if (!interrupt.signal.aborted) process.off('SIGINT', onInterrupt);
        bar?.stop();
        logger.flush();
      }
      for (const warning of result.warnings) if (warning !== stale) process.stderr.write(`warning: ${warning}\n`);
      const first = result.engine.firstFault;
      if (first) process.stderr.write(`warning: ${result.engine.faults} strategy fault(s), each event skipped; the first:\n${first.stack}\n`);
      const seconds = (performance.now() - began) / 1000;
      const written = writeResults(result, outDir);
      const t = tables.finish(result.curve);
      process.stdout.write(summaryTable(result.summary) + '\n\n' + strategyTable(result.summary) + marketTable(result.summary) + '\n\n');
      const events = result.summary.data.events;
      process.stdout.write(`replayed ${events.toLocaleString('en-US')} events in ${seconds.toFixed(1)} s (${Math.round(events / Math.max(seconds, 1e-3)).toLocaleString('en-US')} events/s)\n`);
      process.stdout.write(`wrote ${written.summaryPath}\nwrote ${written.reportPath}\nlog: ${logFile}\n`);
      process.stdout.write(`wrote ${t.fills.path} (${t.fills.rows} fills), ${t.orders.path} (${t.orders.rows} orders), ${t.equity.path} (${t.equity.rows} points)\n`);
      if (result.summary.data.partial) throw new RunEndError(`interrupted: partial results (to ${result.summary.data.to ?? 'the start'}) in ${outDir}`, 130);
    });
}

async function sweep(
  configPath: string,
  config: RunConfig,
  dataPaths: readonly string[],
  opts: BacktestOptions,
  outDir: string,
  showProgress: boolean,
  window: Partial<DataWindow>,
): Promise<void> {
  const { parseSweepAxis } = await import('../../backtest/param-overrides.ts');
  const { checkSweepPoints, runSweep, sortRows, sweepJobs, sweepPoints } = await import('../../jobs/sweep.ts');
  const ids = config.strategies.map((s) => s.id);
  const enabled = config.strategies.filter((s) => s.enabled).map((s) => s.id);
  let points;
  try {
    const axes = opts.sweep.map((spec) => parseSweepAxis(spec, ids, enabled));
    points = sweepPoints(axes, outDir);
    await checkSweepPoints(configPath, points, opts.set);
  } catch (err) {
    // a ConfigError is already one line per problem naming its key (and the flag that set it)
    if (err instanceof StrategyError) throw new UsageError(err.message);
    throw err;
  }
  const { SingleBar, Presets } = (await import('cli-progress')).default;
  const format = `sweep [{bar}] {value}/{total} points${opts.queue !== undefined ? ' | {active} running, {waiting} waiting, {workers} workers' : ''}`;
  const bar = showProgress ? new SingleBar({ stream: process.stderr, format, hideCursor: true }, Presets.shades_classic) : undefined;
  const queueing = { active: '-', waiting: '-', workers: '-' };
  bar?.start(points.length, 0, queueing);
  const jobs = await sweepJobs({ configPath, dataPaths, points, sets: opts.set, keepGoing: opts.keepGoing, window });
  const runner = await chooseJobRunner({ workers: opts.workers, queue: opts.queue, queueName: opts.queueName, command: 'sweep', noun: 'points', bar, shown: queueing });
  // Ctrl-C: the points running stop at the event reached (partial), the others are not started
  const interrupt = new AbortController();
  // (once only: Ctrl-C in a terminal also reaches the launcher, which passes it on, bin/relaunch.mjs)
  const onInterrupt = (): void => {
    if (interrupt.signal.aborted) return;
    bar?.stop();
    process.stderr.write('interrupted: stopping the sweep (running points at the event reached); writing the finished and partial points\n');
    interrupt.abort();
  };
  process.on('SIGINT', onInterrupt);
  let rows;
  try {
    rows = await runSweep(runner, points, jobs, (_row, done) => bar?.update(done, queueing), interrupt.signal);
  } finally {
    if (!interrupt.signal.aborted) process.off('SIGINT', onInterrupt);
    bar?.stop();
    await runner.close?.();
  }
  const partial = interrupt.signal.aborted;
  const sorted = sortRows(rows, opts.sort as ObjectiveName);
  // a column of the strategies' own figures (ctx.metric) when any point has one
  const own = sorted.some((r) => r.summary.strategies.some((x) => Object.keys(x.metrics).length > 0));
  const table = sorted.map((r) => {
    const m = r.summary.metrics;
    const o = r.summary.orders;
    const refused = [o.denied > 0 ? `denied ${fmtCounts(o.deniedByCode)}` : '', o.rejected > 0 ? `rejected ${fmtCounts(o.rejectedByReason)}` : ''].filter((x) => x !== '').join('; ');
    const label = r.summary.data.partial ? `${r.label} (partial)` : r.label;
    const row = [label, fmtMoney(m.pnl.total), fmtPercent(m.return), fmtRatio(m.sharpe), fmtMoney(m.maxDrawdown.amount), String(m.fills), fmtMoney(m.fees), fmtPercent(m.winRate), refused || '-'];
    return own ? [...row, fmtStrategyMetrics(r.summary)] : row;
  });
  const head = ['point', 'pnl', 'return', 'sharpe', 'maxDrawdown', 'fills', 'fees', 'winRate', 'denied / rejected'];
  const right = [false, true, true, true, true, true, true, true, false];
  process.stdout.write(renderTable(own ? [...head, 'strategy metrics'] : head, table, own ? [...right, false] : right) + '\n');
  const basis = sorted[0]?.summary.metrics.ratios;
  if (basis) process.stdout.write(`sharpe: from returns of the equity every ${basis.intervalMs / 1000} s, annualised; n/a below ${basis.minReturns} returns\n\n`);
  mkdirSync(outDir, { recursive: true });
  const index = {
    partial,
    ...(partial ? { notRun: points.filter((p) => !rows.some((r) => r.label === p.label)).map((p) => p.label) } : {}),
    sort: opts.sort,
    sets: opts.set.map((o) => ({ key: o.key, value: o.value })),
    points: sorted.map((r) => ({ label: r.label, partial: r.summary.data.partial, params: r.overrides.map((o) => ({ key: o.key, value: o.value })), dir: r.label, metrics: r.summary.metrics })),
  };
  writeFileSync(join(outDir, 'sweep.json'), JSON.stringify(index, null, 2) + '\n');
  process.stdout.write(`wrote ${rows.length} summaries and reports under ${outDir} (index: ${join(outDir, 'sweep.json')})\n`);
  if (partial) {
    const cut = rows.filter((r) => r.summary.data.partial).length;
    throw new RunEndError(`interrupted: ${rows.length - cut} of ${points.length} points finished, ${cut} partial, ${points.length - rows.length} not run; results in ${outDir}`, 130);
  }
}

function summaryTable(s: import('../../backtest/summary.ts').BacktestSummary): string {
  const rows = summaryRows(s);
  if (s.settled.length > 0) rows.push(['settled markets', s.settled.map((x) => `${x.conditionId.slice(0, 10)}… ${x.winner === null ? 'no winner' : 'won by ' + x.winner.slice(0, 8) + '…'}: +${x.proceeds} (realized ${x.realizedPnl})`).join('; ')]);
  if (s.faults.first) rows.push(['strategy faults', `${s.faults.count} (first at ${s.faults.first.at}: ${s.faults.first.message})`]);
  return renderTable(['metric', 'value'], rows, [false, false]);
}

/** Each strategy's own fills, turnover, fees and PnL (adding up to the run's), when the run has more than one. */
function strategyTable(s: import('../../backtest/summary.ts').BacktestSummary): string {
  if (s.strategies.length < 2) return '';
  const rows = s.strategies.map((x) => [x.id, String(x.fills), fmtMoney(x.turnover), fmtMoney(x.fees), fmtMoney(x.pnl.realized), fmtMoney(x.pnl.unrealized), fmtMoney(x.pnl.total)]);
  return renderTable(['strategy', 'fills', 'turnover', 'fees', 'realized', 'unrealized', 'pnl'], rows, [false, true, true, true, true, true, true]) + '\n\n';
}

function marketTable(s: import('../../backtest/summary.ts').BacktestSummary): string {
  const rows = s.markets.slice(0, 15).map((r) => [r.question.length > 48 ? r.question.slice(0, 47) + '…' : r.question, String(r.fills), fmtMoney(r.volume), fmtMoney(r.fees), fmtMoney(r.pnl.total)]);
  const more = s.markets.length > 15 ? `\n(${s.markets.length - 15} more markets in summary.json)` : '';
  return renderTable(['market', 'fills', 'volume', 'fees', 'pnl'], rows, [false, true, true, true, true]) + more;
}
