/**
 * Child of bench/whole-venue.bench.ts: a paper run (the run session a user's `clobot run` starts)
 * that follows every market of the venue at <url> over the WS market channel, with one strategy
 * that only watches. Prints one JSON line per phase on stdout (`listed`, `known`, `measure`,
 * then the result), so the parent can read the sandbox's CPU over the same window.
 *
 * Args: <venue url> <warm-up s> <measure s> <work dir>
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRunSession } from '../../src/app/run-session.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/core/log.ts';
import { sourceExtension } from '../bench-paths.ts';
import { watchedBooks } from './watch-strategy.ts';

const [url, warmText, measureText, dir] = process.argv.slice(2);
if (url === undefined || dir === undefined) throw new Error('usage: whole-venue-run <venue url> <warm-up s> <measure s> <work dir>');
const warmMs = Number(warmText) * 1000;
const measureMs = Number(measureText) * 1000;
const MB = 2 ** 20;
/** How often the oldest book's age is looked at while measuring. */
const AGE_EVERY_MS = 500;

const say = (line: Record<string, unknown>): void => {
  process.stdout.write(JSON.stringify(line) + '\n');
};

// the strategy module beside this file, in the form this file runs in (.ts through tsx, .js compiled)
const strategyPath = fileURLToPath(new URL(`./watch-strategy${sourceExtension(import.meta.url)}`, import.meta.url));
const configPath = join(dir, 'whole-venue.yaml');
writeFileSync(
  configPath,
  [
    'mode: paper',
    'venue:',
    `  baseUrl: ${url}`,
    'data:',
    '  transport: ws',
    '  markets: all',
    // extra data keys for an experiment (CLOBOT_BENCH_VENUE_DATA='marketStatusMs: 0;feeRateRefreshMs: 0')
    ...(process.env['CLOBOT_BENCH_VENUE_DATA'] ?? '').split(';').filter((l) => l.trim() !== '').map((l) => `  ${l.trim()}`),
    'strategies:',
    '  - id: watch',
    `    module: ${JSON.stringify(strategyPath)}`,
    'logging:',
    '  level: warn',
    `  file: ${JSON.stringify(join(dir, 'run.log'))}`,
    '',
  ].join('\n'),
);

const config = loadConfig(configPath, {});
const staleBookMs = config.risk.staleBookMs;
const cpu0 = process.cpuUsage();
const started = performance.now();
const session = await startRunSession({ config, logger: createLogger({ level: 'warn', file: join(dir, 'run.log') }) });
const listedMs = performance.now() - started;
const tokens = session.tokens.length;
say({ phase: 'listed', markets: session.markets.length, tokens, listedMs });

const cache = session.engine.cache;
const known = (): number => {
  let n = 0;
  for (const s of cache.states()) if (s.book !== undefined) n++;
  return n;
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const knowDeadline = started + 180_000;
let withBook = 0;
while ((withBook = known()) < tokens && performance.now() < knowDeadline) await sleep(100);
const knownMs = performance.now() - started;
const startupCpuMs = cpuMs(process.cpuUsage(cpu0));
say({ phase: 'known', withBook, knownMs });

await sleep(warmMs);
const rssAfterWarmUp = process.memoryUsage().rss;
say({ phase: 'measure' });
const cpuAt = process.cpuUsage();
const booksAt = watchedBooks();
const windowStart = performance.now();
let peakRss = rssAfterWarmUp;
let oldestMs = 0;
let oldestToken = '';
const ages: number[] = [];
while (performance.now() - windowStart < measureMs) {
  await sleep(AGE_EVERY_MS);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const now = session.engine.clock.now();
  let oldest = 0;
  let token = '';
  for (const s of cache.states()) {
    const age = s.bookSeenAt === undefined ? Infinity : now - s.bookSeenAt;
    if (age > oldest) {
      oldest = age;
      token = s.token.tokenId;
    }
  }
  ages.push(oldest);
  if (oldest > oldestMs) {
    oldestMs = oldest;
    oldestToken = token;
  }
}
const windowMs = performance.now() - windowStart;
const windowCpuMs = cpuMs(process.cpuUsage(cpuAt));
const books = watchedBooks() - booksAt;
say({ phase: 'measured' });
const heapMb = process.memoryUsage().heapUsed / MB;
const summary = await session.stop({ keepOrders: true });
ages.sort((a, b) => a - b);
say({
  phase: 'result',
  markets: session.markets.length,
  tokens,
  withBook,
  listedMs,
  knownMs,
  startupCpuMs,
  rssAfterWarmUpMb: rssAfterWarmUp / MB,
  peakRssMb: peakRss / MB,
  heapMb,
  windowMs,
  windowCpuMs,
  books,
  oldestMs,
  oldestToken,
  oldestP50Ms: ages[Math.floor(ages.length / 2)] ?? NaN,
  staleBookMs,
  marketData: summary.marketData,
});
process.exit(0);

function cpuMs(u: NodeJS.CpuUsage): number {
  return (u.user + u.system) / 1000;
}
