/**
 * Test-only strategy for causal event order: on the first book of its first token with an ask,
 * it sends a marketable GTC buy, a FAK buy and a FOK buy at the best ask, and a GTC buy resting
 * one tick under the best bid (filled later, if at all, by the flow). Every order event and fill
 * it hears goes, in order, to a process-wide registry under `tag`.
 */
import { defineStrategy, qty, z, type OrderIntent } from 'clobot';

const Params = z.object({ tag: z.string(), size: z.number().positive().default(5) }).strict();

export interface Heard {
  readonly type: string;
  readonly clientOrderId: string;
}

const REGISTRY = Symbol.for('clobot.test.order-sequence');

/** What the strategy heard under `tag`, in order. */
export function heardSequence(tag: string): Heard[] {
  const g = globalThis as { [REGISTRY]?: Map<string, Heard[]> };
  const all = (g[REGISTRY] ??= new Map());
  let list = all.get(tag);
  if (list === undefined) all.set(tag, (list = []));
  return list;
}

export default defineStrategy({
  name: 'order-sequence',
  params: Params,
  init: () => ({ sent: false }),
  onBook({ ctx, state, market, book }): OrderIntent[] | undefined {
    if (state.sent || book.tokenId !== ctx.tokenIds[0]) return undefined;
    const ask = market.bestAsk;
    const bid = market.bestBid;
    if (ask === undefined || bid === undefined) return undefined;
    state.sent = true;
    const size = Math.max(qty(ctx.params.size), market.rules.minOrderSize);
    const tick = market.rules.tickSize;
    const place = (orderType: 'GTC' | 'FAK' | 'FOK', price: number): OrderIntent => ({ kind: 'place', tokenId: book.tokenId, side: 'BUY', price, size, orderType, tag: orderType });
    return [place('GTC', ask), place('FAK', ask), place('FOK', ask), ...(bid - tick > 0 ? [place('GTC', bid - tick)] : [])];
  },
  onOrderEvent({ ctx, event }) {
    heardSequence(ctx.params.tag).push({ type: event.type, clientOrderId: event.clientOrderId });
  },
  onFill({ ctx, fill }) {
    heardSequence(ctx.params.tag).push({ type: fill.type, clientOrderId: fill.clientOrderId });
  },
});
