/**
 * Test-only strategy: every `holdTicks` timer ticks (300 ms each) it moves one post-only bid per
 * token between two prices deep below the best bid (`depthTicks` and `depthTicks + 1` ticks
 * under it), so the engine cancels and places an order per token on a fixed beat whatever the
 * books do.
 * The e2e tests use it to have order posts in flight while a fault is on. Deep bids rarely fill.
 */
import { z } from 'zod';
import { defineStrategy, type OrderIntent, type StrategyContext } from '../../../../src/strategy/index.ts';

const Params = z
  .object({
    /** Ticks below the best bid of the nearer of the two prices. */
    depthTicks: z.number().int().min(1).default(4),
    /** Shares per bid; 0 = the market's minimum order size. */
    size: z.number().min(0).default(0),
    /** Timer ticks each price is held before the bid moves. */
    holdTicks: z.number().int().min(1).default(1),
  })
  .strict();
type P = z.infer<typeof Params>;

const MICROS = 1_000_000;
const ticks = new WeakMap<object, number>();

export default defineStrategy<P>({
  name: 'churn-quoter',
  description: 'Moves one deep post-only bid per token on every timer tick (e2e tests).',
  params: Params as unknown as z.ZodType<P>,
  timerIntervalMs: 300,
  onTimer({ ctx }) {
    const n = (ticks.get(ctx) ?? 0) + 1;
    ticks.set(ctx, n);
    const out: OrderIntent[] = [];
    for (const market of ctx.markets()) {
      const intent = bid(ctx, market.tokenId, Math.floor(n / ctx.params.holdTicks) % 2);
      if (intent) out.push(intent);
    }
    return out;
  },
});

function bid(ctx: StrategyContext<P>, tokenId: string, extra: number): OrderIntent | undefined {
  const market = ctx.market(tokenId);
  if (market?.bestBid === undefined) return undefined;
  const tick = market.rules.tickSize;
  const price = Math.floor(market.bestBid / tick) * tick - (ctx.params.depthTicks + extra) * tick;
  if (price < tick) return undefined;
  const size = ctx.params.size > 0 ? Math.round(ctx.params.size * MICROS) : market.rules.minOrderSize;
  return { kind: 'quote', tokenId, bids: [{ price, size }], asks: [] };
}
