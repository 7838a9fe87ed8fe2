/**
 * Test-only strategy: notes what it sees of its markets' events (per `tag` param, in a
 * process-wide registry, `eventSightings`), the trade prints it hears, and with `take` buys the
 * best ask of the first book it sees once (FAK), noting when it sent the order and when it filled.
 */
import { z } from 'zod';
import { defineStrategy } from '../../../src/strategy/index.ts';
import type { EventInfo } from '../../../src/core/types.ts';

const Params = z.object({ tag: z.string(), take: z.boolean().default(false) }).strict();

export interface EventSightings {
  /** Each token's event as its snapshot named it, its matching delay and its end date. */
  readonly markets: Map<string, { event: EventInfo | undefined; secondsDelay: number | undefined; endDate: number | undefined; conditionId: string }>;
  /** `ctx.events()` at the first book, and `ctx.event(id)`'s tokens for each. */
  events: readonly EventInfo[];
  eventTokens: Map<string, readonly string[]>;
  trades: number;
  sentAt: number | undefined;
  filledAt: number | undefined;
}

const REGISTRY = Symbol.for('clobot.test.event-watcher');
const took = new WeakSet<object>();

export function eventSightings(tag: string): EventSightings {
  const g = globalThis as { [REGISTRY]?: Map<string, EventSightings> };
  const all = (g[REGISTRY] ??= new Map());
  if (!all.has(tag)) all.set(tag, { markets: new Map(), events: [], eventTokens: new Map(), trades: 0, sentAt: undefined, filledAt: undefined });
  return all.get(tag)!;
}

export default defineStrategy({
  name: 'event-watcher',
  params: Params,
  onBook({ ctx, market, book }) {
    const seen = eventSightings(ctx.params.tag);
    seen.markets.set(market.tokenId, { event: market.event, secondsDelay: market.rules.secondsDelay, endDate: market.rules.endDate, conditionId: market.conditionId });
    if (seen.events.length === 0) {
      seen.events = ctx.events();
      for (const e of seen.events) seen.eventTokens.set(e.id, ctx.event(e.id)?.markets.map((m) => m.tokenId) ?? []);
    }
    const ask = book.asks[0];
    if (!ctx.params.take || took.has(ctx) || ask === undefined) return;
    took.add(ctx);
    seen.sentAt = ctx.clock.now();
    return { kind: 'place', tokenId: book.tokenId, side: 'BUY', price: ask.price, size: ask.size, orderType: 'FAK' };
  },
  onTrade({ ctx }) {
    eventSightings(ctx.params.tag).trades++;
  },
  onFill({ ctx }) {
    const seen = eventSightings(ctx.params.tag);
    seen.filledAt ??= ctx.clock.now();
  },
});
