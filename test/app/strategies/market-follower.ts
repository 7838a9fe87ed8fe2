/**
 * Test-only strategy: records, per `tag` param in a process-wide registry (`followerLog`), its
 * lifecycle events with the `ctx.tokenIds` it had when each arrived, its books per token (with
 * receipt times) and its fills. With `takeNew`, it buys at the best ask (FAK, the market's
 * minimum size) once on each token of a market added while it runs, as soon as it sees its book.
 */
import { z } from 'zod';
import type { LifecycleEvent } from '../../../src/core/events.ts';
import { defineStrategy } from '../../../src/strategy/index.ts';

const Params = z.object({ tag: z.string(), takeNew: z.boolean().default(false) }).strict();

export interface FollowerLog {
  readonly lifecycle: { readonly event: LifecycleEvent; readonly tokenIds: readonly string[]; readonly markets: number }[];
  /** tsInit of every book, per token. */
  readonly books: Map<string, number[]>;
  readonly fills: Map<string, number>;
  /** Tokens of markets added while running, not yet bought. */
  readonly pending: Set<string>;
  readonly bought: Set<string>;
}

const REGISTRY = Symbol.for('clobot.test.market-follower');

export function followerLog(tag: string): FollowerLog {
  const g = globalThis as { [REGISTRY]?: Map<string, FollowerLog> };
  const all = (g[REGISTRY] ??= new Map());
  let log = all.get(tag);
  if (log === undefined) {
    log = { lifecycle: [], books: new Map(), fills: new Map(), pending: new Set(), bought: new Set() };
    all.set(tag, log);
  }
  return log;
}

export default defineStrategy({
  name: 'market-follower',
  description: 'Records lifecycle events, books and fills; buys once on each new market (tests).',
  params: Params,
  onLifecycle({ ctx, event }) {
    const log = followerLog(ctx.params.tag);
    log.lifecycle.push({ event, tokenIds: [...ctx.tokenIds], markets: ctx.markets().length });
    if (event.type === 'MarketAdded' && ctx.params.takeNew) for (const t of event.tokenIds) log.pending.add(t);
  },
  onBook({ ctx, market, book }) {
    const log = followerLog(ctx.params.tag);
    const list = log.books.get(book.tokenId) ?? [];
    list.push(book.tsInit);
    log.books.set(book.tokenId, list);
    const ask = book.asks[0];
    if (!log.pending.has(book.tokenId) || ask === undefined) return;
    log.pending.delete(book.tokenId);
    log.bought.add(book.tokenId);
    const size = Math.max(market.rules.minOrderSize, 5_000_000);
    return { kind: 'place', tokenId: book.tokenId, side: 'BUY', price: ask.price, size, orderType: 'FAK' };
  },
  onFill({ ctx, fill }) {
    const log = followerLog(ctx.params.tag);
    log.fills.set(fill.tokenId, (log.fills.get(fill.tokenId) ?? 0) + 1);
  },
});
