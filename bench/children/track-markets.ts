/**
 * Child of bench/engine-live.bench.ts: tracks the first 1,000 markets of a venue with the engine
 * (a strategy that only watches) for N seconds, then prints its memory figures as one JSON line.
 */
import { NEVER } from 'rxjs';
import { LiveClock } from '../../src/core/clock.ts';
import { resolveMarkets, tokensOf } from '../../src/data/market-selection.ts';
import { pollMarkets } from '../../src/data/poll-source.ts';
import { venueBookFeed } from '../../src/data/venue-book-feed.ts';
import { TradingEngine, type EngineLogger } from '../../src/engine/trading-engine.ts';
import { defineStrategy } from '../../src/strategy/api.ts';
import { createVenueClient } from '../../src/venue/client.ts';

const [url, secondsText] = process.argv.slice(2);
const seconds = Number(secondsText ?? 20);
const MB = 2 ** 20;
const silent: EngineLogger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

const baseline = process.memoryUsage().rss;
const clock = new LiveClock();
const venue = createVenueClient({ baseUrl: url!, clock });
const markets = await resolveMarkets(venue, { tokenIds: [], conditionIds: [], slugs: [], filter: { tags: [], active: false, acceptingOrders: false, maxCount: 1_000 } });
const tokens = tokensOf(markets);
const tokenIds = tokens.map((t) => t.tokenId);
const engine = new TradingEngine({
  clock,
  execution: { kind: 'none', fills$: NEVER, prepare: () => NEVER, submit: () => NEVER, cancel: () => NEVER, cancelAll: () => NEVER, openOrders: () => NEVER, order: () => NEVER, close() {} },
  marketEvents$: pollMarkets({ clock, feed: venueBookFeed(venue), tokenIds, chunkSize: 20, pollIntervalMs: 0, concurrency: 4 }),
  tokens,
  strategies: [{ id: 'watch', definition: defineStrategy({ name: 'watch', onBook: () => undefined }), params: {}, tokenIds }],
  risk: { limits: {} },
  settings: { maxBatchWaitMs: 10, maxBatchSize: 15, quoteTolerance: { priceTicks: 0, sizeShare: 0 }, reconcileDelayMs: 1000, syncIntervalMs: 0, maxInFlightBatches: 4 },
  startingBalance: 0,
  runId: 'bench002',
  log: silent,
});
engine.start();
let peak = 0;
const started = Date.now();
while (Date.now() - started < seconds * 1000) {
  await new Promise((r) => setTimeout(r, 500));
  peak = Math.max(peak, process.memoryUsage().rss);
}
const withBook = [...engine.cache.states()].filter((s) => s.book).length;
const heap = process.memoryUsage().heapUsed;
await engine.stop({ keepOrders: true });
process.stdout.write(JSON.stringify({ tokens: tokens.length, withBook, baselineMb: Math.round(baseline / MB), peakMb: Math.round(peak / MB), heapMb: Math.round(heap / MB) }) + '\n');
process.exit(0);
