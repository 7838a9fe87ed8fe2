/**
 * Test-only strategy for the account-state scenario (issue 13 point 1): on the first book of
 * its `tokenId`, it notes what it sees of the account (ctx.balance(), its own
 * position), buys `size` at the best ask (FAK) only when its free cash covers it, and tries to
 * sell `sell` shares of that token at the best bid (which it does not hold: risk must deny it
 * when the account holds such shares outside the bot). What it saw and decided is kept in a
 * process-wide registry under `tag`.
 */
import { z } from 'zod';
import type { OrderIntent } from '../../../src/core/intents.ts';
import { defineStrategy } from '../../../src/strategy/index.ts';

const Params = z.object({ tag: z.string(), tokenId: z.string(), size: z.number().positive().default(10), sell: z.number().min(0).default(5) }).strict();

export interface CashCheck {
  tokenId: string;
  /** ctx.balance() at the first book, micros. */
  free: number;
  /** ctx.position(token).size at the first book, micros. */
  position: number;
  /** What the BUY needed, micros. */
  needed: number;
  decision: 'bought' | 'not enough cash';
}

const REGISTRY = Symbol.for('clobot.test.cash-checker');

export function cashChecks(tag: string): CashCheck[] {
  const g = globalThis as { [REGISTRY]?: Map<string, CashCheck[]> };
  const all = (g[REGISTRY] ??= new Map());
  let list = all.get(tag);
  if (list === undefined) all.set(tag, (list = []));
  return list;
}

export default defineStrategy({
  name: 'cash-checker',
  description: 'Buys once when its free cash covers it, and tries one sell (tests).',
  params: Params,
  init: () => ({ done: false }),
  onBook({ ctx, state, book }) {
    const ask = book.asks[0];
    const bid = book.bids[0];
    if (state.done || ask === undefined || bid === undefined || book.tokenId !== ctx.params.tokenId) return;
    state.done = true;
    const size = Math.round(ctx.params.size * 1_000_000);
    const needed = Math.round((ask.price * size) / 1_000_000);
    const free = ctx.balance();
    const bought = free >= needed;
    cashChecks(ctx.params.tag).push({ tokenId: book.tokenId, free, position: ctx.position(book.tokenId).size, needed, decision: bought ? 'bought' : 'not enough cash' });
    const out: OrderIntent[] = [];
    if (bought) out.push({ kind: 'place', tokenId: book.tokenId, side: 'BUY', price: ask.price, size, orderType: 'FAK' });
    if (ctx.params.sell > 0) out.push({ kind: 'place', tokenId: book.tokenId, side: 'SELL', price: bid.price, size: Math.round(ctx.params.sell * 1_000_000) });
    return out;
  },
});
