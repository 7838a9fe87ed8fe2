/**
 * Test-only strategy: on every timer tick (300 ms) it quotes one post-only bid per token a few
 * ticks under the best bid, and every `takeEveryTicks` ticks sends one taker order (FAK) of the
 * market's minimum size on its first token: a BUY at the best ask, or a SELL at the best bid of
 * what it bought, so it stays about flat. The venue-restart e2e test uses it to have both
 * post-only quotes and taker orders asked for through a staged restart.
 */
import { z } from 'zod';
import { defineStrategy, type OrderIntent } from '../../../../src/strategy/index.ts';

const Params = z
  .object({
    /** Ticks under the best bid of the quoted bid. */
    depthTicks: z.number().int().min(1).default(3),
    /** A taker order every this many timer ticks. */
    takeEveryTicks: z.number().int().min(1).default(4),
  })
  .strict();

const ticks = new WeakMap<object, number>();

export default defineStrategy({
  name: 'quote-and-take',
  description: 'Post-only bids on every token and a small taker order now and then (e2e tests).',
  params: Params,
  timerIntervalMs: 300,
  onTimer({ ctx }) {
    const n = (ticks.get(ctx) ?? 0) + 1;
    ticks.set(ctx, n);
    const out: OrderIntent[] = [];
    const markets = ctx.markets();
    for (const market of markets) {
      const tick = market.rules.tickSize;
      if (market.bestBid === undefined) continue;
      const price = market.bestBid - ctx.params.depthTicks * tick;
      if (price >= tick) out.push({ kind: 'quote', tokenId: market.tokenId, bids: [{ price, size: market.rules.minOrderSize }], asks: [] });
    }
    const first = markets[0];
    if (n % ctx.params.takeEveryTicks === 0 && first !== undefined && first.bestAsk !== undefined && first.bestBid !== undefined) {
      const size = first.rules.minOrderSize;
      const held = ctx.position(first.tokenId)?.size ?? 0;
      out.push(
        held >= size
          ? { kind: 'place', tokenId: first.tokenId, side: 'SELL', price: first.bestBid, size, orderType: 'FAK', tag: 'take' }
          : { kind: 'place', tokenId: first.tokenId, side: 'BUY', price: first.bestAsk, size, orderType: 'FAK', tag: 'take' },
      );
    }
    return out;
  },
});
