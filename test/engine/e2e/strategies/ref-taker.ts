/**
 * Test-only strategy (API version 3): on the first book of its first token with an ask, one
 * fill-and-kill BUY of the market's minimum size through the best ask, with `ref` `<id>-take` and
 * `group` `e2e`; nothing else. Two of them in one run trade the same token. What each saw of its
 * own position and of the run's is kept per run, for the test to read (`seen`).
 */
import { defineStrategy, type OrderIntent } from '../../../../src/strategy/index.ts';

/** What each strategy id saw after its own order filled: its position, the run's, ctx.order(ref). */
export const seen = new Map<string, { own: number; run: number; orderRef: string | undefined; orderStatus: string | undefined }>();

export default defineStrategy({
  name: 'ref-taker',
  description: 'One FAK buy with a ref on its first book (e2e tests of refs and per-strategy accounts).',
  init: () => ({ sent: false }),
  onBook({ ctx, state, market }): OrderIntent | undefined {
    if (state.sent || market.tokenId !== ctx.tokenIds[0] || market.bestAsk === undefined) return undefined;
    state.sent = true;
    // a few ticks through the best ask, so the flow moving the ask away in the meantime does not leave it unfilled
    const tick = market.rules.tickSize;
    const price = Math.min(market.bestAsk + 3 * tick, 1_000_000 - tick);
    return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price, size: market.rules.minOrderSize, orderType: 'FAK', ref: `${ctx.strategyId}-take`, group: 'e2e' };
  },
  onFill({ ctx, fill }) {
    const order = ctx.order(`${ctx.strategyId}-take`);
    seen.set(ctx.strategyId, {
      own: ctx.position(fill.tokenId).size,
      run: ctx.account().positions.find((p) => p.tokenId === fill.tokenId)?.size ?? 0,
      orderRef: order?.ref,
      orderStatus: order?.status,
    });
  },
});
