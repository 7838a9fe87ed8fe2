/**
 * Example 02: a band quoter. Quotes one bid and one ask a fixed number of ticks around the mid of
 * every token it trades, and re-quotes only when the mid has moved far enough from where it last
 * quoted (or after a fill). Resting orders keep their place in the queue in between, which is
 * what a queue-aware backtest rewards; `config/backtest-band-quoter.yaml` runs it on a recording:
 *
 *   node bin/clobot.mjs backtest config/backtest-band-quoter.yaml --data backtest/<file>
 *   node bin/clobot.mjs backtest config/backtest-band-quoter.yaml --data backtest/<file> \
 *     --sweep bq.halfSpreadTicks=1,2,3 --sweep bq.requoteTicks=1,3
 *
 * Prices and sizes are Micros (integers of 1e-6): 0.52 is 520_000.
 */
import { z } from 'zod';
import { defineStrategy, type MarketSnapshot, type OrderIntent, type StrategyContext } from '../src/strategy/index.ts';

const Params = z
  .object({
    /** Shares per quote. */
    size: z.number().positive().default(10),
    /** Distance of each quote from the mid, in ticks. */
    halfSpreadTicks: z.number().int().min(1).default(2),
    /** Re-quote when the mid is this many ticks away from the mid of the last quote. */
    requoteTicks: z.number().int().min(1).default(2),
    /** Stop bidding when holding this many shares of a token. */
    maxInventory: z.number().positive().default(100),
    /** Books older than this are not quoted on. */
    maxBookAgeMs: z.number().int().positive().default(10_000),
  })
  .strict();

type P = z.infer<typeof Params>;
const MICROS = 1_000_000;

/** Per run (per context), never per module: two runs in one process must not share state. */
const quotedMid = new WeakMap<StrategyContext<P>, Map<string, number>>();

function state(ctx: StrategyContext<P>): Map<string, number> {
  let s = quotedMid.get(ctx);
  if (!s) {
    s = new Map();
    quotedMid.set(ctx, s);
  }
  return s;
}

function quote(ctx: StrategyContext<P>, market: MarketSnapshot, force: boolean): OrderIntent | undefined {
  const { mid, rules } = market;
  if (mid === undefined || market.ageMs > ctx.params.maxBookAgeMs) return undefined;
  const tick = rules.tickSize;
  const last = state(ctx).get(market.tokenId);
  if (!force && last !== undefined && Math.abs(mid - last) < ctx.params.requoteTicks * tick) return undefined;
  state(ctx).set(market.tokenId, mid);
  const half = ctx.params.halfSpreadTicks * tick;
  const bid = Math.max(tick, Math.floor((mid - half) / tick) * tick);
  const ask = Math.min(MICROS - tick, Math.ceil((mid + half) / tick) * tick);
  const size = Math.max(Math.round(ctx.params.size * MICROS), rules.minOrderSize);
  const held = ctx.position(market.tokenId).size;
  const sellSize = Math.min(size, held);
  return {
    kind: 'quote',
    tokenId: market.tokenId,
    bids: held + size <= ctx.params.maxInventory * MICROS && bid < ask ? [{ price: bid, size }] : [],
    asks: sellSize >= rules.minOrderSize && ask > bid ? [{ price: ask, size: sellSize - (sellSize % 10_000) }] : [],
  };
}

export default defineStrategy<P>({
  name: 'band-quoter',
  description: 'Quotes a band around the mid of every token; re-quotes when the mid leaves it or after a fill.',
  params: Params,
  onBook({ ctx, market }) {
    return quote(ctx, market, false);
  },
  onFill({ ctx, fill }) {
    const market = ctx.market(fill.tokenId);
    return market ? quote(ctx, market, true) : undefined;
  },
  onStop() {
    return { kind: 'cancelAll' };
  },
});
