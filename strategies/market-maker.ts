/**
 * A simple market maker: quotes one bid and one ask around the book on every token it trades,
 * inside the spread when there is room, and leans against its inventory. It is the strategy
 * `npm start` runs against the embedded sandbox.
 *
 * Prices and sizes are Micros (integers of 1e-6): 0.52 is 520_000. `px` and `qty` convert.
 */
import { defineStrategy, fromMicros, MAX_AMOUNT, MICROS_PER_UNIT, qty, roundToTick, z } from 'clobot';
import type { MarketSnapshot, OrderIntent, StrategyContext } from 'clobot';

const Params = z
  .object({
    /** Shares per quote. */
    size: z.number().positive().max(MAX_AMOUNT).default(10),
    /** Quote this many ticks inside the best bid/ask when the spread allows (0 = join the best). */
    improveTicks: z.number().int().min(0).default(1),
    /** Never quote a spread narrower than this many ticks. */
    minSpreadTicks: z.number().int().min(1).default(1),
    /** Stop buying when holding this many shares of a token; stop selling at zero. */
    maxInventory: z.number().positive().max(MAX_AMOUNT).default(100),
    /** Books older than this are not quoted on. */
    maxBookAgeMs: z.number().int().positive().default(10_000),
  })
  .strict();

type P = z.output<typeof Params>;

function quote(ctx: StrategyContext<P>, market: MarketSnapshot): OrderIntent | undefined {
  const { bestBid, bestAsk, rules } = market;
  if (bestBid === undefined || bestAsk === undefined || market.ageMs > ctx.params.maxBookAgeMs) return undefined;
  const tick = rules.tickSize;
  const improve = ctx.params.improveTicks * tick;
  // Prices go on the market's tick grid: after a tick change to a coarser one, the book's best
  // prices (older orders) may lie between grid points.
  let bid = roundToTick(bestBid + improve, tick, 'down');
  let ask = roundToTick(bestAsk - improve, tick, 'up');
  if (ask - bid < ctx.params.minSpreadTicks * tick) {
    // not enough room to improve: join the best prices (or the grid points just outside them)
    bid = roundToTick(bestBid, tick, 'down');
    ask = roundToTick(bestAsk, tick, 'up');
  }
  if (ask - bid < ctx.params.minSpreadTicks * tick) return { kind: 'quote', tokenId: market.tokenId, bids: [], asks: [] };
  bid = Math.max(tick, Math.min(bid, MICROS_PER_UNIT - tick));
  ask = Math.max(tick, Math.min(ask, MICROS_PER_UNIT - tick));
  // The two outcomes of a market pay 1 together: our BUY here and our BUY on the other outcome at
  // p + q >= 1 would trade with each other (so would two SELLs at p + q <= 1), and risk denies
  // such an order (SELF_CROSS). When the other outcome's quote was set on an older book, keep
  // this one a tick clear of it.
  for (const o of market.complementTokenId === undefined ? [] : ctx.openOrders(market.complementTokenId)) {
    if (o.side === 'BUY') bid = Math.min(bid, MICROS_PER_UNIT - o.price - tick);
    else ask = Math.max(ask, MICROS_PER_UNIT - o.price + tick);
  }
  const size = Math.max(qty(ctx.params.size), rules.minOrderSize);
  const held = ctx.position(market.tokenId).size;
  const canBuy = held + size <= qty(ctx.params.maxInventory) && bid > 0;
  const sellSize = Math.min(size, held);
  const canSell = sellSize >= rules.minOrderSize && ask < MICROS_PER_UNIT;
  return {
    kind: 'quote',
    tokenId: market.tokenId,
    bids: canBuy ? [{ price: bid, size }] : [],
    asks: canSell ? [{ price: ask, size: sellSize }] : [],
  };
}

export default defineStrategy({
  name: 'market-maker',
  description: 'Quotes one bid and one ask inside the spread on every token; leans on inventory.',
  params: Params,
  onBook({ ctx, market }) {
    return quote(ctx, market);
  },
  onFill({ ctx, fill }) {
    ctx.log.info('filled', { token: fill.tokenId.slice(0, 10), side: fill.side, price: fromMicros(fill.price), size: fromMicros(fill.size) });
    const market = ctx.market(fill.tokenId);
    return market ? quote(ctx, market) : undefined;
  },
  onStop() {
    return { kind: 'cancelAll' };
  },
});
