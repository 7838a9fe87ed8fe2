import { Subject } from 'rxjs';
import { SimulatedClock } from '../src/core/clock.ts';
import type { MarketEvent } from '../src/core/events.ts';
import type { OrderIntent } from '../src/core/intents.ts';
import { MemoryMetrics, type MetricLabels, type MetricsMirror } from '../src/core/metrics.ts';
import { FeeRate } from '../src/core/money.ts';
import type { TrackedToken } from '../src/data/market-cache.ts';
import type { EngineLogger } from '../src/engine/ports.ts';
import { ENGINE_METRICS } from '../src/engine/engine-metrics.ts';
import { TradingEngine } from '../src/engine/trading-engine.ts';
import { constantLatency } from '../src/sim/edge/latency-model.ts';
import { queueModel } from '../src/sim/edge/queue-model.ts';
import { SimulatedExecutionClient } from '../src/sim/edge/simulated-execution.ts';
import { defineStrategy } from '../src/strategy/api.ts';
import { PrometheusExporter } from '../src/telemetry/prometheus.ts';
import type { BenchTable } from './table.ts';

/**
 * What mirroring the run's metrics into prom-client costs on the tick (`clobot run
 * --metrics-port` or `--control`: src/telemetry/prometheus.ts, every MemoryMetrics write repeated
 * into a prom-client counter, gauge or histogram). Two engines in one process, alike but for the
 * mirror, on the simulated edge in virtual time (no network, no signing: the engine's own work
 * per book, where the mirror's share is largest), each fed the same books: a strategy moves a
 * bid and an ask on every book, so each book is a tick with cancels, places, order events and
 * the tick-to-trade observation. A round feeds each engine in interleaved chunks; its figure is
 * µs per book per engine, and the ratio (mirrored / not) is taken within the round.
 */

const M = 1_000_000;
const T0 = 1_700_000_000_000;
const COND = '0x' + 'cd'.repeat(32);
const YES = '7001';
const ROUNDS = 21;
/** A round: this many chunks per engine, interleaved (A B B A ...), so a drift falls on both alike. */
const CHUNKS = 10;
const CHUNK_BOOKS = 200;
const BOOKS_PER_ROUND = CHUNKS * CHUNK_BOOKS;
const WARMUP_BOOKS = 3_000;
/** Virtual time between books, ms (the edge's 5 ms latency answers each tick before the next). */
const BOOK_GAP_MS = 50;

const TOKEN: TrackedToken = {
  tokenId: YES,
  conditionId: COND,
  outcome: 'Yes',
  outcomeIndex: 0,
  complementTokenId: undefined,
  question: 'bench',
  negRiskMarketId: undefined,
  rules: { conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0, acceptingOrders: true },
};

const silent: EngineLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silent;
  },
};

/** A bid one tick under the best and an ask one tick over it, 5 shares each: they move with the book. */
const quoter = defineStrategy({
  name: 'bench-quoter',
  onBook: ({ book }): OrderIntent[] => {
    const bid = book.bids[0]?.price ?? 400_000;
    const ask = book.asks[0]?.price ?? 600_000;
    return [{ kind: 'quote', tokenId: YES, bids: [{ price: bid - 10_000, size: 5 * M }], asks: [{ price: ask + 10_000, size: 5 * M }] }];
  },
});

interface Rig {
  readonly feed: (i: number) => void;
  readonly metrics: MemoryMetrics;
  readonly exporter: PrometheusExporter | undefined;
}

/** One metric write of the engine, as a mirror hears it. */
type Write = readonly ['inc' | 'set' | 'observe' | 'total', string, number, MetricLabels | undefined];

/** A mirror that keeps every write (to replay the engine's writes alone). */
function recorder(writes: Write[]): MetricsMirror {
  return {
    inc: (name, labels, by = 1) => void writes.push(['inc', name, by, labels]),
    set: (name, value, labels) => void writes.push(['set', name, value, labels]),
    observe: (name, value, labels) => void writes.push(['observe', name, value, labels]),
    total: (name, value, labels) => void writes.push(['total', name, value, labels]),
  };
}

function rig(mirror: 'none' | 'prometheus' | Write[]): Rig {
  const mirrored = mirror === 'prometheus';
  const clock = new SimulatedClock(T0);
  const edge = new SimulatedExecutionClient({
    kind: 'paper',
    clock,
    tokens: [{ tokenId: YES, conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, fees: { maker: new FeeRate(0), taker: new FeeRate(0) } }],
    latency: constantLatency(5, 0),
    queue: queueModel('conservative'),
    balance: 1_000_000 * M,
  });
  const metrics = new MemoryMetrics();
  // as a run builds it: before the engine writes anything, so every write is mirrored
  const exporter = mirrored ? new PrometheusExporter({ metrics, build: { version: 'bench', mode: 'paper' } }) : undefined;
  if (Array.isArray(mirror)) metrics.mirror(recorder(mirror));
  const events = new Subject<MarketEvent>();
  const engine = new TradingEngine({
    clock,
    execution: edge,
    marketEvents$: events,
    tokens: [TOKEN],
    strategies: [{ id: 'q', definition: quoter, params: {}, tokenIds: [YES] }],
    risk: { limits: { maxOrderNotional: 1_000 * M, staleBookMs: 5_000 } },
    settings: { maxBatchWaitMs: 0, maxBatchSize: 15, quoteTolerance: { priceTicks: 0, sizeShare: 0 }, reconcileDelayMs: 500, syncIntervalMs: 0, maxInFlightBatches: 4 },
    startingBalance: 1_000_000 * M,
    runId: mirrored ? 'benchpro' : 'benchmem',
    log: silent,
    metrics,
  });
  engine.start();
  return {
    metrics,
    exporter,
    feed(i: number) {
      // the book moves one tick up and down: every book moves both quotes
      const at = clock.now();
      const bid = 450_000 + (i % 2) * 10_000;
      const book = {
        tokenId: YES,
        conditionId: COND,
        tsEvent: at,
        tsInit: at,
        hash: `h${i}`,
        bids: [{ price: bid, size: 100 * M }],
        asks: [{ price: bid + 100_000, size: 100 * M }],
        tickSize: undefined,
        minOrderSize: undefined,
        negRisk: false,
        lastTradePrice: undefined,
      };
      const event: MarketEvent = { type: 'book', book, tsEvent: at, tsInit: at };
      edge.onMarketEvent(event);
      engine.onMarketEvent(event);
      clock.advanceBy(BOOK_GAP_MS);
    },
  };
}

/** Books whose writes are replayed per round (the replay rows). */
const WRITE_BOOKS = 2_000;

/**
 * The engine's metric writes alone: recorded from an engine fed books (after its warm-up), then
 * replayed book by book into a MemoryMetrics with and without the prom-client mirror, rounds
 * interleaved; µs per book of writes.
 */
function isolatedWrites(): { plain: number[]; mirrored: number[]; ratios: number[]; perBook: number } {
  const writes: Write[] = [];
  const source = rig(writes);
  timed(source, 0, WARMUP_BOOKS);
  writes.length = 0;
  timed(source, WARMUP_BOOKS, WRITE_BOOKS);
  const replay = (metrics: MemoryMetrics): number => {
    const t0 = performance.now();
    for (const [kind, name, value, labels] of writes) {
      if (kind === 'inc') metrics.inc(name, labels, value);
      else if (kind === 'set') metrics.set(name, value, labels);
      else if (kind === 'observe') metrics.observe(name, value, labels);
    }
    return ((performance.now() - t0) * 1000) / WRITE_BOOKS;
  };
  const plainSink = new MemoryMetrics();
  const mirroredSink = new MemoryMetrics();
  new PrometheusExporter({ metrics: mirroredSink, processMetrics: false });
  for (let i = 0; i < 5; i++) {
    replay(plainSink);
    replay(mirroredSink);
  }
  const plain: number[] = [];
  const mirrored: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let p: number;
    let m: number;
    if (r % 2 === 0) {
      p = replay(plainSink);
      m = replay(mirroredSink);
    } else {
      m = replay(mirroredSink);
      p = replay(plainSink);
    }
    plain.push(p);
    mirrored.push(m);
    ratios.push(m / p);
  }
  return { plain, mirrored, ratios, perBook: writes.filter((w) => w[0] !== 'total').length / WRITE_BOOKS };
}

/** µs per book over `n` books from `from` on. */
function timed(r: Rig, from: number, n: number): number {
  const t0 = performance.now();
  for (let i = from; i < from + n; i++) r.feed(i);
  return ((performance.now() - t0) * 1000) / n;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

export async function run(): Promise<BenchTable> {
  const plain = rig('none');
  const mirrored = rig('prometheus');
  timed(plain, 0, WARMUP_BOOKS);
  timed(mirrored, 0, WARMUP_BOOKS);
  const a: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  let next = WARMUP_BOOKS;
  for (let r = 0; r < ROUNDS; r++) {
    let usPlain = 0;
    let usMirrored = 0;
    for (let c = 0; c < CHUNKS; c++) {
      if ((r + c) % 2 === 0) {
        usPlain += timed(plain, next, CHUNK_BOOKS);
        usMirrored += timed(mirrored, next, CHUNK_BOOKS);
      } else {
        usMirrored += timed(mirrored, next, CHUNK_BOOKS);
        usPlain += timed(plain, next, CHUNK_BOOKS);
      }
      next += CHUNK_BOOKS;
    }
    a.push(usPlain / CHUNKS);
    b.push(usMirrored / CHUNKS);
    ratios.push(usMirrored / usPlain);
  }
  // the two engines did the same work: same orders, same metric writes
  const submitted = (m: MemoryMetrics) => m.total(ENGINE_METRICS.submitted);
  if (submitted(plain.metrics) !== submitted(mirrored.metrics) || submitted(plain.metrics) === 0) throw new Error('prometheus-mirror: the two engines did not place the same orders');
  const text = await mirrored.exporter!.text();
  const series = text.split('\n').filter((l) => l.startsWith('clobot_')).length;
  const writes = isolatedWrites();
  const range = (xs: readonly number[], digits: number) => `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;
  const perBook = submitted(plain.metrics) / (WARMUP_BOOKS + ROUNDS * BOOKS_PER_ROUND);
  return {
    title: 'prometheus mirror: the engine per book, metrics in memory only vs mirrored into prom-client (same run)',
    columns: ['engine', 'rounds', 'books/round', 'µs/book median', 'µs/book range', 'ratio median', 'ratio range'],
    rows: [
      ['MemoryMetrics only', ROUNDS, BOOKS_PER_ROUND, Number(median(a).toFixed(2)), range(a, 2), 1, '-'],
      ['MemoryMetrics + prom-client mirror', ROUNDS, BOOKS_PER_ROUND, Number(median(b).toFixed(2)), range(b, 2), Number(median(ratios).toFixed(3)), range(ratios, 3)],
      ["a book's metric writes alone, MemoryMetrics only", ROUNDS, WRITE_BOOKS, Number(median(writes.plain).toFixed(3)), range(writes.plain, 3), 1, '-'],
      ["a book's metric writes alone, + prom-client mirror", ROUNDS, WRITE_BOOKS, Number(median(writes.mirrored).toFixed(3)), range(writes.mirrored, 3), Number(median(writes.ratios).toFixed(3)), range(writes.ratios, 3)],
    ],
    notes: [
      `each book moves a bid and an ask (cancels and places: ${perBook.toFixed(2)} orders submitted per book), answered by the simulated edge 5 ms later in virtual time; no network, no signing`,
      `the writes alone: the ${writes.perBook.toFixed(1)} metric writes an engine makes per book (recorded from a third engine fed the same books), replayed into a fresh MemoryMetrics with and without the exporter; the mirror adds ${(median(writes.mirrored) - median(writes.plain)).toFixed(3)} µs a book, ${(((median(writes.mirrored) - median(writes.plain)) / median(a)) * 100).toFixed(2)}% of the plain engine's median µs/book`,
      `the mirrored engine's exporter holds ${series} clobot_ sample lines after the run (plus prom-client's process metrics, collected only at a scrape)`,
      `ratio: mirrored µs/book over plain µs/book within each round (${CHUNKS} chunks of ${CHUNK_BOOKS} books per engine, interleaved); on the live path a tick also signs and posts (engine-live bench), so the share there is smaller still`,
    ],
  };
}
