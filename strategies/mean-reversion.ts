/**
 * Mean reversion on the mid. Each tracked token's mid is sampled every `sampleMs` into a window of
 * the last `window` samples; its z-score is (mid - mean) / standard deviation of the window. When
 * the z-score falls to `-entryZ` or below (the price dropped far from its recent mean) the strategy
 * buys `size` shares at the ask (FAK); it sells what it holds at the bid (FAK) when the z-score is
 * back to `-exitZ` or above (reverted), when the mid fell `stopLoss` below the entry price (the
 * drop was news, not noise), or after `maxHoldMs`. Long only: a spike of YES is a drop of NO, so
 * tracking both tokens of a market trades both directions.
 *
 * It does not trade a book wider than `maxSpread`, a window whose deviation is under `minStdev`
 * (a flat price says nothing), a mid outside [`minPrice`, `maxPrice`] (near 0 or 1 the price is
 * bounded, not mean-reverting), or a token with an order in flight. After an exit the token rests
 * `cooldownMs`. docs/strategies/mean-reversion.md.
 */
import { defineStrategy, MICROS_PER_UNIT, qty, z } from 'clobot';
import type { FillEvent, MarketSnapshot, OrderIntent, StrategyContext } from 'clobot';

const Params = z
  .object({
    /** Mid samples in the window (the mean and deviation are of these). */
    window: z.number().int().min(5).max(10_000).default(60),
    /** How often the mid is sampled, ms (at most once per book change). */
    sampleMs: z.number().int().positive().default(1_000),
    /** Buy when the z-score is at or below -entryZ. */
    entryZ: z.number().positive().default(2),
    /** Sell when the z-score is back at or above -exitZ (0: at the mean). */
    exitZ: z.number().min(0).default(0),
    /** Sell when the mid is this far below the entry price (USDC per share). */
    stopLoss: z.number().positive().max(1).default(0.05),
    /** Sell after holding this long, ms. */
    maxHoldMs: z.number().int().positive().default(600_000),
    /** Shares per entry. */
    size: z.number().positive().default(10),
    /** No trade when the spread is wider than this (USDC per share). */
    maxSpread: z.number().positive().max(1).default(0.04),
    /** No entry while the window's standard deviation is under this (USDC per share). */
    minStdev: z.number().min(0).default(0.003),
    /** Entries only for mids in [minPrice, maxPrice]. */
    minPrice: z.number().min(0).max(1).default(0.1),
    maxPrice: z.number().min(0).max(1).default(0.9),
    /** Rest after an exit before the token is entered again, ms. */
    cooldownMs: z.number().int().min(0).default(30_000),
  })
  .strict()
  .refine((p) => p.minPrice < p.maxPrice, { message: 'minPrice must be below maxPrice' })
  .refine((p) => p.exitZ < p.entryZ, { message: 'exitZ must be below entryZ (the exit is nearer the mean than the entry)' });

type P = z.output<typeof Params>;

interface TokenState {
  /** The window's mids, USDC per share, oldest first. */
  readonly mids: number[];
  lastSampleAt: number;
  /** When the position was opened and at what average price (USDC); undefined while flat. */
  entry: { at: number; price: number } | undefined;
  coolUntil: number;
}

interface State {
  readonly tokens: Map<string, TokenState>;
  readonly counts: { entries: number; reverted: number; stopped: number; timedOut: number };
}

/** The window's mean and population standard deviation. */
export function meanStdev(values: readonly number[]): { mean: number; stdev: number } {
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  let sq = 0;
  for (const v of values) sq += (v - mean) * (v - mean);
  return { mean, stdev: Math.sqrt(sq / values.length) };
}

function tokenState(state: State, tokenId: string): TokenState {
  let t = state.tokens.get(tokenId);
  if (t === undefined) {
    t = { mids: [], lastSampleAt: -Infinity, entry: undefined, coolUntil: 0 };
    state.tokens.set(tokenId, t);
  }
  return t;
}

function exit(ctx: StrategyContext<P>, state: State, market: MarketSnapshot, t: TokenState, why: 'reverted' | 'stopped' | 'timedOut'): OrderIntent | undefined {
  const held = ctx.position(market.tokenId).size;
  if (held < market.rules.minOrderSize || market.bestBid === undefined) return undefined;
  state.counts[why]++;
  ctx.metric(why, state.counts[why]);
  ctx.log.info('exit', { tokenId: market.tokenId, why, mid: (market.mid ?? 0) / MICROS_PER_UNIT, entry: t.entry?.price });
  t.coolUntil = ctx.clock.now() + ctx.params.cooldownMs;
  return { kind: 'place', tokenId: market.tokenId, side: 'SELL', price: market.bestBid, size: held, orderType: 'FAK', ref: `mr-exit-${why}` };
}

function consider(ctx: StrategyContext<P>, state: State, market: MarketSnapshot): OrderIntent | undefined {
  const p = ctx.params;
  const now = ctx.clock.now();
  if (market.mid === undefined || market.bestBid === undefined || market.bestAsk === undefined) return undefined;
  const t = tokenState(state, market.tokenId);
  const mid = market.mid / MICROS_PER_UNIT;
  if (now - t.lastSampleAt >= p.sampleMs) {
    t.mids.push(mid);
    if (t.mids.length > p.window) t.mids.shift();
    t.lastSampleAt = now;
  }
  if (ctx.openOrders(market.tokenId).length > 0 || !market.rules.acceptingOrders) return undefined;
  const held = ctx.position(market.tokenId).size;
  if (held <= 0) t.entry = undefined;
  if (t.mids.length < p.window) return undefined;
  const { mean, stdev } = meanStdev(t.mids);
  const zScore = stdev > 0 ? (mid - mean) / stdev : 0;
  const spread = (market.bestAsk - market.bestBid) / MICROS_PER_UNIT;

  if (held > 0 && t.entry !== undefined) {
    if (mid <= t.entry.price - p.stopLoss) return exit(ctx, state, market, t, 'stopped');
    if (now - t.entry.at >= p.maxHoldMs) return exit(ctx, state, market, t, 'timedOut');
    if (stdev > 0 && zScore >= -p.exitZ) return exit(ctx, state, market, t, 'reverted');
    return undefined;
  }
  if (held > 0 || now < t.coolUntil) return undefined;
  if (spread > p.maxSpread || stdev < p.minStdev || mid < p.minPrice || mid > p.maxPrice) return undefined;
  if (zScore > -p.entryZ) return undefined;
  state.counts.entries++;
  ctx.metric('entries', state.counts.entries);
  return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price: market.bestAsk, size: qty(p.size), orderType: 'FAK', ref: 'mr-entry' };
}

export default defineStrategy({
  name: 'mean-reversion',
  description: 'Buys a token whose mid fell entryZ deviations under its recent mean; sells on reversion, a stop-loss or a maximum holding time',
  params: Params,
  init: (): State => ({ tokens: new Map(), counts: { entries: 0, reverted: 0, stopped: 0, timedOut: 0 } }),
  onBook({ ctx, state, market }) {
    return consider(ctx, state, market);
  },
  onFill({ ctx, state, fill }: { ctx: StrategyContext<P>; state: State; fill: FillEvent }) {
    if (fill.side !== 'BUY') return;
    const t = tokenState(state, fill.tokenId);
    // the entry's time is its first fill; its price the position's average
    const position = ctx.position(fill.tokenId);
    t.entry = { at: t.entry?.at ?? ctx.clock.now(), price: position.avgPrice / MICROS_PER_UNIT };
  },
});
