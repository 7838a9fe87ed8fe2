import { seededRandom } from '../core/seeded-random.ts';
import type { Micros } from '../core/fixed.ts';
import type { BookLevel } from '../core/types.ts';
import type { MarketEvent } from '../core/events.ts';
import type { RecordedMarket, RecordingHeader } from '../data/recording/format.ts';

/**
 * A deterministic synthetic recording for tests, demos and benchmarks: binary markets whose YES
 * mid walks on the tick grid, full books of `depth` levels on both tokens (NO mirrors YES), level
 * sizes that churn, and trade prints. The same options give the same events.
 */
export interface SyntheticOptions {
  readonly seed?: number;
  readonly markets?: number;
  /** Levels per side. */
  readonly depth?: number;
  /** Events to generate (books, trades). */
  readonly events?: number;
  readonly startMs?: number;
  /** Mean gap between events, ms. */
  readonly meanGapMs?: number;
  /** Share of events that are trade prints. */
  readonly tradeShare?: number;
  /** Share of book updates whose mid moves a tick (the rest change sizes only). */
  readonly moveShare?: number;
  /**
   * Regimes: the events cut into as many equal phases as values, each phase's mids drifting by its
   * value in [-1, 1] (1: every move up, -1: every move down, 0: a fair walk). Default: no drift.
   * A recording that rises then falls (`[0.6, -0.6]`) fits a param only to its first half.
   */
  readonly trends?: readonly number[];
}

const TICK = 10_000; // 0.01
const LOT = 10_000; // 0.01 share
const ONE = 1_000_000;

function conditionId(i: number): string {
  return '0x' + (i + 1).toString(16).padStart(64, '0');
}

export function syntheticHeader(options: SyntheticOptions = {}): RecordingHeader {
  const n = options.markets ?? 3;
  const markets: RecordedMarket[] = [];
  for (let i = 0; i < n; i++) {
    markets.push({
      conditionId: conditionId(i),
      question: `Synthetic market ${i + 1}?`,
      slug: `synthetic-${i + 1}`,
      negRisk: false,
      tickSize: '0.01',
      minOrderSize: '5',
      makerBaseFeeBps: 0,
      takerBaseFeeBps: 0,
      tokens: [
        { tokenId: String(1_000_001 + 2 * i), outcome: 'Yes' },
        { tokenId: String(1_000_002 + 2 * i), outcome: 'No' },
      ],
    });
  }
  return { format: 'clobot-recording', version: 1, createdAt: options.startMs ?? 1_767_225_600_000, source: `synthetic:seed=${options.seed ?? 1}`, markets };
}

interface MarketState {
  /** YES mid in ticks, kept within [5, 95]. */
  mid: number;
  /** Half-spread in ticks (>= 1). */
  half: number;
  bidSizes: number[];
  askSizes: number[];
  seq: number;
}

/** The events, generated lazily (a large recording never sits in memory). */
export function* syntheticEvents(options: SyntheticOptions = {}): Generator<MarketEvent> {
  const header = syntheticHeader(options);
  const rnd = seededRandom(options.seed ?? 1);
  const depth = options.depth ?? 20;
  const total = options.events ?? 10_000;
  const meanGap = options.meanGapMs ?? 200;
  const tradeShare = options.tradeShare ?? 0.1;
  const move = (options.moveShare ?? 0.3) / 2;
  const trends = options.trends ?? [];
  if (trends.some((t) => !(t >= -1 && t <= 1))) throw new RangeError(`synthetic trends must be in [-1, 1], were ${trends.join(', ')}`);
  const lots = (min: number, max: number) => (min + Math.floor(rnd() * (max - min))) * 100 * LOT; // whole shares
  const states: MarketState[] = header.markets.map(() => ({
    mid: 30 + Math.floor(rnd() * 40),
    half: 1 + Math.floor(rnd() * 2),
    bidSizes: Array.from({ length: depth }, () => lots(1, 50)),
    askSizes: Array.from({ length: depth }, () => lots(1, 50)),
    seq: 0,
  }));
  let t = header.createdAt;
  for (let n = 0; n < total; n++) {
    t += 1 + Math.floor(rnd() * 2 * meanGap);
    const i = Math.floor(rnd() * states.length);
    const s = states[i]!;
    const market = header.markets[i]!;
    const yes = market.tokens[0]!.tokenId;
    const no = market.tokens[1]!.tokenId;
    if (rnd() < tradeShare) {
      // a print at the touch; it thins that level a little
      const buy = rnd() < 0.5;
      const price = (buy ? s.mid + s.half : s.mid - s.half) * TICK;
      const size = Math.max(LOT * 100, Math.floor((buy ? s.askSizes[0]! : s.bidSizes[0]!) * rnd() * 0.5));
      const taken = size - (size % LOT);
      if (buy) s.askSizes[0] = Math.max(LOT * 100, s.askSizes[0]! - taken);
      else s.bidSizes[0] = Math.max(LOT * 100, s.bidSizes[0]! - taken);
      yield { type: 'trade', tokenId: yes, price, size: taken, side: buy ? 'BUY' : 'SELL', tsEvent: t - 5, tsInit: t };
      continue;
    }
    // move: the mid walks (with the phase's drift), sizes churn
    const trend = trends.length === 0 ? 0 : trends[Math.min(trends.length - 1, Math.floor((n * trends.length) / total))]!;
    const up = move * (1 + trend);
    const r = rnd();
    if (r < up && s.mid < 94) {
      s.mid++;
      s.bidSizes.unshift(lots(1, 50));
      s.bidSizes.pop();
      s.askSizes.shift();
      s.askSizes.push(lots(1, 50));
    } else if (r >= up && r < 2 * move && s.mid > 6) {
      s.mid--;
      s.askSizes.unshift(lots(1, 50));
      s.askSizes.pop();
      s.bidSizes.shift();
      s.bidSizes.push(lots(1, 50));
    } else if (r >= 2 * move && r < 2 * move + 0.05) {
      s.half = s.half === 1 ? 2 : 1;
    }
    for (let k = 0; k < 3; k++) {
      const j = Math.floor(rnd() * Math.min(depth, 5));
      const sizes = rnd() < 0.5 ? s.bidSizes : s.askSizes;
      sizes[j] = Math.max(LOT * 100, sizes[j]! + (rnd() < 0.5 ? -1 : 1) * lots(1, 20));
    }
    const bids: BookLevel[] = [];
    const asks: BookLevel[] = [];
    for (let k = 0; k < depth; k++) {
      const bp = (s.mid - s.half - k) * TICK;
      const ap = (s.mid + s.half + k) * TICK;
      if (bp >= TICK) bids.push({ price: bp, size: s.bidSizes[k]! });
      if (ap <= ONE - TICK) asks.push({ price: ap, size: s.askSizes[k]! });
    }
    s.seq++;
    const common = { tsEvent: t - 5, tsInit: t, tickSize: TICK as Micros, minOrderSize: 5 * ONE, negRisk: false, lastTradePrice: undefined };
    yield { type: 'book', book: { tokenId: yes, conditionId: market.conditionId, hash: `${i}-y-${s.seq}`, bids, asks, ...common }, tsEvent: t - 5, tsInit: t };
    if (rnd() < 0.5) {
      // the NO book mirrors YES: its bids are 1 - YES asks
      const noBids = asks.map((l) => ({ price: ONE - l.price, size: l.size }));
      const noAsks = bids.map((l) => ({ price: ONE - l.price, size: l.size }));
      yield { type: 'book', book: { tokenId: no, conditionId: market.conditionId, hash: `${i}-n-${s.seq}`, bids: noBids, asks: noAsks, ...common }, tsEvent: t - 5, tsInit: t };
      n++;
    }
  }
}
