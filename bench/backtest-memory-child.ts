/**
 * The measured process of bench/backtest-memory.bench.ts: one backtest of the recording named on
 * the command line, then its peak resident memory as one JSON line on stdout.
 */
import { openBacktestData } from '../src/backtest/data-file.ts';
import { runBacktest } from '../src/app/run-backtest.ts';
import { loadConfig } from '../src/config/load-config.ts';

const [configPath, dataPath] = process.argv.slice(2);
if (!configPath || !dataPath) {
  console.error('usage: backtest-memory-child.ts <config> <recording>');
  process.exit(2);
}
const started = performance.now();
const baseline = process.resourceUsage().maxRSS;
const result = await runBacktest({ config: loadConfig(configPath), data: await openBacktestData(dataPath) });
const usage = process.resourceUsage();
process.stdout.write(
  JSON.stringify({
    events: result.metrics.events,
    orders: result.summary.orders.submitted,
    fills: result.metrics.fills,
    seconds: (performance.now() - started) / 1000,
    startRssKb: baseline,
    maxRssKb: usage.maxRSS,
    heapUsedKb: Math.round(process.memoryUsage().heapUsed / 1024),
  }) + '\n',
);
