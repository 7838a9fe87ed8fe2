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
 * Prices and sizes are Micros (integers of 1e-6): 0.52 is 520_000. The mid each token was last
 * quoted at is the strategy's state: `init` makes it once per run, every hook gets it.
 */
import { defineStrategy, MICROS_PER_UNIT, qty, roundToLot, roundToTick, z } from 'clobot';
import type { MarketSnapshot, OrderIntent, StrategyContext } from 'clobot';

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

type P = z.output<typeof Params>;

/** The strategy's state for one run (`init` makes it): the mid each token was last quoted at. */
interface State {
  readonly quotedMid: Map<string, number>;
}

function quote(ctx: StrategyContext<P>, state: State, market: MarketSnapshot, force: boolean): OrderIntent | undefined {
  const { mid, rules } = market;
  if (mid === undefined || market.ageMs > ctx.params.maxBookAgeMs) return undefined;
  const tick = rules.tickSize;
  const last = state.quotedMid.get(market.tokenId);
  if (!force && last !== undefined && Math.abs(mid - last) < ctx.params.requoteTicks * tick) return undefined;
  state.quotedMid.set(market.tokenId, mid);
  const half = ctx.params.halfSpreadTicks * tick;
  const bid = Math.max(tick, roundToTick(mid - half, tick, 'down'));
  const ask = Math.min(MICROS_PER_UNIT - tick, roundToTick(mid + half, tick, 'up'));
  const size = Math.max(qty(ctx.params.size), rules.minOrderSize);
  const held = ctx.position(market.tokenId).size;
  const sellSize = Math.min(size, held);
  return {
    kind: 'quote',
    tokenId: market.tokenId,
    bids: held + size <= qty(ctx.params.maxInventory) && bid < ask ? [{ price: bid, size }] : [],
    asks: sellSize >= rules.minOrderSize && ask > bid ? [{ price: ask, size: roundToLot(sellSize) }] : [],
  };
}

export default defineStrategy({
  name: 'band-quoter',
  description: 'Quotes a band around the mid of every token; re-quotes when the mid leaves it or after a fill.',
  params: Params,
  init: (): State => ({ quotedMid: new Map() }),
  onBook({ ctx, state, market }) {
    return quote(ctx, state, market, false);
  },
  onFill({ ctx, state, fill }) {
    const market = ctx.market(fill.tokenId);
    return market ? quote(ctx, state, market, true) : undefined;
  },
  onStop() {
    return { kind: 'cancelAll' };
  },
});
