/**
 * Test-only strategy for the market-resolution scenario: on the first book of the first token it
 * trades it buys `size` at the best ask once (FAK), then keeps one bid resting `depthTicks` below
 * the best bid while the market trades (a quote the close must cancel, and one it tries again
 * after the close or a game start's clear, which risk must deny: once, on hearing it, and never
 * from a book after it, however soon the order's end is known). Every lifecycle event it hears is
 * kept in its state and in a process-wide registry under `tag`.
 */
import { z } from 'zod';
import type { LifecycleEvent } from '../../../src/core/events.ts';
import type { OrderIntent } from '../../../src/core/intents.ts';
import { defineStrategy } from '../../../src/strategy/index.ts';

const Params = z.object({ tag: z.string(), size: z.number().positive().default(10), depthTicks: z.number().int().min(1).default(5) }).strict();

const REGISTRY = Symbol.for('clobot.test.take-then-quote');

/** The lifecycle events heard under `tag` so far. */
export function heardLifecycle(tag: string): LifecycleEvent[] {
  const g = globalThis as { [REGISTRY]?: Map<string, LifecycleEvent[]> };
  const all = (g[REGISTRY] ??= new Map());
  let list = all.get(tag);
  if (list === undefined) all.set(tag, (list = []));
  return list;
}

export default defineStrategy({
  name: 'take-then-quote',
  description: 'Buys once at the ask, then rests one deep bid (tests).',
  params: Params,
  init: () => ({ token: undefined as string | undefined, bought: false, bid: undefined as { price: number; size: number } | undefined, ended: false }),
  onBook({ ctx, state, book, market }) {
    state.token ??= book.tokenId;
    if (book.tokenId !== state.token) return;
    const tick = market.rules.tickSize;
    const size = Math.round(ctx.params.size * 1_000_000);
    const best = book.bids[0];
    if (best !== undefined && best.price - ctx.params.depthTicks * tick >= tick) {
      state.bid = { price: best.price - ctx.params.depthTicks * tick, size: Math.max(size / 2, market.rules.minOrderSize) };
    }
    const out: OrderIntent[] = [];
    const ask = book.asks[0];
    if (!state.bought && ask !== undefined) {
      state.bought = true;
      out.push({ kind: 'place', tokenId: book.tokenId, side: 'BUY', price: ask.price, size, orderType: 'FAK' });
    }
    if (state.bid !== undefined && !state.ended && !ctx.openOrders(book.tokenId).some((o) => o.orderType !== 'FAK')) out.push({ kind: 'place', tokenId: book.tokenId, side: 'BUY', price: state.bid.price, size: state.bid.size });
    return out;
  },
  onLifecycle({ ctx, state, event }) {
    heardLifecycle(ctx.params.tag).push(event);
    // quoting again once the market closed (or its book was cleared at a game start): risk must
    // deny it (MARKET_CLOSED, MARKET_CLEARED)
    if ((event.type === 'MarketClosed' || event.type === 'MarketCleared') && state.token !== undefined && state.bid !== undefined) {
      state.ended = true;
      return { kind: 'place', tokenId: state.token, side: 'BUY', price: state.bid.price, size: state.bid.size };
    }
    return undefined;
  },
});
