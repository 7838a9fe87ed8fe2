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
// where the memory is at the largest RSS seen (sampled; the replay lets the event loop turn once
// a chunk): the V8 heap's committed and used size, the rest being node, code and other threads
let sampled = process.memoryUsage();
const sampler = setInterval(() => {
  const now = process.memoryUsage();
  if (now.rss > sampled.rss) sampled = now;
}, 20);
sampler.unref();
const result = await runBacktest({ config: loadConfig(configPath), data: await openBacktestData(dataPath) });
const usage = process.resourceUsage();
clearInterval(sampler);
process.stdout.write(
  JSON.stringify({
    events: result.metrics.events,
    orders: result.summary.orders.submitted,
    fills: result.metrics.fills,
    seconds: (performance.now() - started) / 1000,
    startRssKb: baseline,
    maxRssKb: usage.maxRSS,
    heapUsedKb: Math.round(process.memoryUsage().heapUsed / 1024),
    sampledRssKb: Math.round(sampled.rss / 1024),
    sampledHeapTotalKb: Math.round(sampled.heapTotal / 1024),
    sampledHeapUsedKb: Math.round(sampled.heapUsed / 1024),
  }) + '\n',
);
