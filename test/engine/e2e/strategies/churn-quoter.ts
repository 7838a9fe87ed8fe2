/**
 * Test-only strategy: every `holdTicks` timer ticks (300 ms each) it moves one post-only bid per
 * token between two prices deep below the best bid it saw first on that token (`depthTicks` and
 * `depthTicks + 1` ticks under it), so the engine cancels and places an order per token on a
 * fixed beat, whatever the books do. The e2e tests use it to have order posts in flight while a
 * fault is on. Deep bids rarely fill.
 */
import { z } from 'zod';
import { defineStrategy, type OrderIntent, type StrategyContext } from '../../../../src/strategy/index.ts';

const Params = z
  .object({
    /** Ticks below the first best bid of the nearer of the two prices. */
    depthTicks: z.number().int().min(1).default(4),
    /** Shares per bid; 0 = the market's minimum order size. */
    size: z.number().min(0).default(0),
    /** Timer ticks each price is held before the bid moves. */
    holdTicks: z.number().int().min(1).default(1),
  })
  .strict();
type P = z.infer<typeof Params>;

const MICROS = 1_000_000;
/** Per run (keyed by the strategy's context): timer ticks so far, and the first best bid per token. */
const state = new WeakMap<object, { ticks: number; anchors: Map<string, number> }>();

export default defineStrategy({
  name: 'churn-quoter',
  description: 'Moves one deep post-only bid per token on a fixed beat (e2e tests).',
  params: Params,
  timerIntervalMs: 300,
  onTimer({ ctx }) {
    let s = state.get(ctx);
    if (s === undefined) {
      s = { ticks: 0, anchors: new Map() };
      state.set(ctx, s);
    }
    s.ticks++;
    const out: OrderIntent[] = [];
    for (const market of ctx.markets()) {
      if (market.bestBid !== undefined && !s.anchors.has(market.tokenId)) s.anchors.set(market.tokenId, market.bestBid);
      const anchor = s.anchors.get(market.tokenId);
      if (anchor === undefined) continue;
      const intent = bid(ctx, market.tokenId, anchor, Math.floor(s.ticks / ctx.params.holdTicks) % 2);
      if (intent) out.push(intent);
    }
    return out;
  },
});

function bid(ctx: StrategyContext<P>, tokenId: string, anchor: number, extra: number): OrderIntent | undefined {
  const market = ctx.market(tokenId);
  if (market === undefined) return undefined;
  const tick = market.rules.tickSize;
  const price = Math.floor(anchor / tick) * tick - (ctx.params.depthTicks + extra) * tick;
  if (price < tick) return undefined;
  const size = ctx.params.size > 0 ? Math.round(ctx.params.size * MICROS) : market.rules.minOrderSize;
  return { kind: 'quote', tokenId, bids: [{ price, size }], asks: [] };
}
