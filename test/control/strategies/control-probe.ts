/**
 * Test-only strategy for the control API: on the books of its first token it buys `size` (FAK,
 * 5 ticks through the best ask, on the books moving under it) until it holds a position to
 * flatten, then on every book quotes one bid
 * `quoteTicks` under the best bid (orders a halt must stop). `quoteTicks` is updatable; each
 * ParamsUpdated it hears is kept, with the value `ctx.params` then holds, in a process-wide
 * registry under `tag`.
 */
import { z } from 'zod';
import type { OrderIntent } from '../../../src/core/intents.ts';
import { defineStrategy } from '../../../src/strategy/index.ts';

const Params = z.object({ tag: z.string(), size: z.number().positive().default(10), quoteTicks: z.number().int().min(1).max(50).default(5) }).strict();

const REGISTRY = Symbol.for('clobot.test.control-probe');

/** The quoteTicks values the strategy saw in ParamsUpdated under `tag`, in order. */
export function paramsHeard(tag: string): number[] {
  const g = globalThis as { [REGISTRY]?: Map<string, number[]> };
  const all = (g[REGISTRY] ??= new Map());
  let list = all.get(tag);
  if (list === undefined) all.set(tag, (list = []));
  return list;
}

export default defineStrategy({
  name: 'control-probe',
  description: 'Buys once at the ask, then quotes one bid under the best (control API tests).',
  params: Params,
  updatable: ['quoteTicks'],
  init: () => ({ token: undefined as string | undefined }),
  onBook({ ctx, state, book, market }) {
    state.token ??= book.tokenId;
    if (book.tokenId !== state.token) return;
    const tick = market.rules.tickSize;
    const size = Math.max(Math.round(ctx.params.size * 1_000_000), market.rules.minOrderSize);
    const out: OrderIntent[] = [];
    const ask = book.asks[0];
    const taking = ctx.openOrders(book.tokenId).some((o) => o.orderType === 'FAK');
    if (ctx.position(book.tokenId).size === 0 && !taking && ask !== undefined) {
      out.push({ kind: 'place', tokenId: book.tokenId, side: 'BUY', price: Math.min(ask.price + 5 * tick, 1_000_000 - tick), size, orderType: 'FAK', tag: 'take' });
    }
    // a quote while the take is open would cancel it (the quote's diff takes every resting BUY of the token)
    if (taking || out.length > 0) return out;
    const best = book.bids[0];
    if (best !== undefined && best.price - ctx.params.quoteTicks * tick >= tick) {
      out.push({ kind: 'quote', tokenId: book.tokenId, bids: [{ price: best.price - ctx.params.quoteTicks * tick, size }], asks: [] });
    }
    return out;
  },
  onLifecycle({ ctx, event }) {
    if (event.type === 'ParamsUpdated') paramsHeard(ctx.params.tag).push(ctx.params.quoteTicks);
  },
});
