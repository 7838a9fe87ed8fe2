/**
 * The RxJS form: instead of hooks, `stream` builds an Observable of intents from the input
 * streams. Here: when a token's mid rises by `threshold` over its mid `lookback` books ago, buy
 * with a fill-and-kill order; when it falls by as much, sell what is held. Time-based operators
 * must take `ctx.clock.scheduler` so backtests stay deterministic.
 */
import { filter, groupBy, map, mergeMap, pairwise, bufferCount } from 'rxjs';
import { defineStrategy, qty, z, type OrderIntent } from 'clobot';

const Params = z
  .object({
    lookback: z.number().int().min(2).default(5),
    /** Price move that triggers, in ticks. */
    thresholdTicks: z.number().int().min(1).default(3),
    size: z.number().positive().default(5),
  })
  .strict();

export default defineStrategy({
  name: 'stream-momentum',
  params: Params,
  stream: ({ ctx, books$ }) =>
    books$.pipe(
      filter(({ market }) => market.mid !== undefined),
      groupBy(({ market }) => market.tokenId),
      mergeMap((perToken$) =>
        perToken$.pipe(
          bufferCount(ctx.params.lookback, 1),
          map((window) => ({ first: window[0]!.market, last: window[window.length - 1]!.market })),
          pairwise(),
          map(([, now]) => now),
          map(({ first, last }): OrderIntent | undefined => {
            const move = last.mid! - first.mid!;
            const threshold = ctx.params.thresholdTicks * last.rules.tickSize;
            const held = ctx.position(last.tokenId).size;
            if (move >= threshold && held === 0 && last.bestAsk !== undefined) {
              return { kind: 'place', tokenId: last.tokenId, side: 'BUY', price: last.bestAsk, size: qty(ctx.params.size), orderType: 'FAK' };
            }
            if (move <= -threshold && held >= last.rules.minOrderSize && last.bestBid !== undefined) {
              return { kind: 'place', tokenId: last.tokenId, side: 'SELL', price: last.bestBid, size: held, orderType: 'FAK' };
            }
            return undefined;
          }),
          filter((intent): intent is OrderIntent => intent !== undefined),
        ),
      ),
    ),
});
