/**
 * Test-only strategy: counts its `onBook` and `onPrice` calls, per `tag` param, in a process-wide
 * registry (`watchedCalls`), so a test reads them whichever way the run imported this module.
 * With `take`, it buys the whole best ask of the first book it sees once (FAK), so the top of that
 * book moves even on a quiet venue (the WS channel sends `best_bid_ask` only when a top moves).
 */
import { z } from 'zod';
import { defineStrategy } from '../../../src/strategy/index.ts';

const Params = z.object({ tag: z.string(), take: z.boolean().default(false) }).strict();

export interface WatchedCalls {
  books: number;
  prices: number;
  /** Tokens that had an onPrice call. */
  readonly priceTokens: Set<string>;
}

const REGISTRY = Symbol.for('clobot.test.price-watcher');
/** Runs (by their context) that already took an ask. */
const took = new WeakSet<object>();

/** The calls counted so far under `tag` (made empty on first use). */
export function watchedCalls(tag: string): WatchedCalls {
  const g = globalThis as { [REGISTRY]?: Map<string, WatchedCalls> };
  const all = (g[REGISTRY] ??= new Map());
  let calls = all.get(tag);
  if (calls === undefined) {
    calls = { books: 0, prices: 0, priceTokens: new Set() };
    all.set(tag, calls);
  }
  return calls;
}

export default defineStrategy({
  name: 'price-watcher',
  description: 'Counts onBook and onPrice calls; may take one ask (tests).',
  params: Params,
  onBook({ ctx, book }) {
    watchedCalls(ctx.params.tag).books++;
    const ask = book.asks[0];
    if (!ctx.params.take || took.has(ctx) || ask === undefined) return;
    took.add(ctx);
    return { kind: 'place', tokenId: book.tokenId, side: 'BUY', price: ask.price, size: ask.size, orderType: 'FAK' };
  },
  onPrice({ ctx, prices }) {
    const calls = watchedCalls(ctx.params.tag);
    calls.prices++;
    calls.priceTokens.add(prices.tokenId);
  },
});
