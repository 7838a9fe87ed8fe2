/**
 * Test-only strategy for the fee-rate scenario: on the first book of the first token it trades it
 * buys `size` at the best ask (FAK); each time it hears FeeRateChanged for that token it buys
 * `size` again at the newest best ask (a taker order priced after the change). Every lifecycle
 * event it hears is kept in a process-wide registry under `tag` (take-then-quote's).
 */
import { z } from 'zod';
import type { OrderIntent } from '../../../src/core/intents.ts';
import { defineStrategy } from '../../../src/strategy/index.ts';
import { heardLifecycle } from './take-then-quote.ts';

const Params = z.object({ tag: z.string(), size: z.number().positive().default(10) }).strict();

export default defineStrategy({
  name: 'fee-taker',
  description: 'Buys at the ask at start and again after each fee-rate change (tests).',
  params: Params,
  init: () => ({ token: undefined as string | undefined, bought: false }),
  onBook({ ctx, state, book }) {
    state.token ??= book.tokenId;
    if (book.tokenId !== state.token || state.bought) return;
    const ask = book.asks[0];
    if (ask === undefined) return;
    state.bought = true;
    return { kind: 'place', tokenId: book.tokenId, side: 'BUY', price: ask.price, size: Math.round(ctx.params.size * 1_000_000), orderType: 'FAK' };
  },
  onLifecycle({ ctx, state, event }) {
    heardLifecycle(ctx.params.tag).push(event);
    if (event.type !== 'FeeRateChanged' || event.tokenId !== state.token) return undefined;
    const ask = ctx.market(event.tokenId)?.book?.asks[0];
    if (ask === undefined) return undefined;
    const buy: OrderIntent = { kind: 'place', tokenId: event.tokenId, side: 'BUY', price: ask.price, size: Math.round(ctx.params.size * 1_000_000), orderType: 'FAK' };
    return buy;
  },
});
