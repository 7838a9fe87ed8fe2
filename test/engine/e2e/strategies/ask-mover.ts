/**
 * Test-only strategy: buys `size` shares of one token with one fill-and-kill BUY at `buyPrice`
 * on its first book, then quotes one post-only ask of what it holds (at most `size`) at
 * `askPrice`, and quotes again on each book, fill and params update. `askPrice` is updatable, so
 * a test moves the ask when it wants (the engine then cancels the old ask and places the new
 * one); 0 quotes nothing. The quote-holds e2e test uses it to change an ask whose old order the
 * venue matched while the fill has not reached the bot.
 */
import { z } from 'zod';
import { defineStrategy, type OrderIntent, type StrategyContext } from '../../../../src/strategy/index.ts';

const MICROS = 1_000_000;

const Params = z
  .object({
    tokenId: z.string().min(1),
    /** Shares bought, and most shares asked. */
    size: z.number().positive(),
    /** Limit of the buy (a price, e.g. 0.55). */
    buyPrice: z.number().positive().lt(1),
    /** Price of the ask; 0: no ask. */
    askPrice: z.number().min(0).lt(1).default(0),
  })
  .strict();
type P = z.infer<typeof Params>;

/** Per run (keyed by the strategy's context): whether the buy went out. */
const bought = new WeakSet<object>();

function ask(ctx: StrategyContext<P>): OrderIntent | undefined {
  const { tokenId, size, askPrice } = ctx.params;
  const market = ctx.market(tokenId);
  if (market === undefined || !bought.has(ctx)) return undefined;
  const held = ctx.position(tokenId).size;
  const shares = Math.min(Math.round(size * MICROS), held);
  const asks = askPrice > 0 && shares >= market.rules.minOrderSize ? [{ price: Math.round(askPrice * MICROS), size: shares }] : [];
  return { kind: 'quote', tokenId, bids: [], asks };
}

export default defineStrategy({
  name: 'ask-mover',
  description: 'Buys once, then asks what it holds at a price the test moves (e2e tests).',
  params: Params,
  updatable: ['askPrice'],
  onBook({ ctx, market }) {
    if (market.tokenId !== ctx.params.tokenId) return undefined;
    if (!bought.has(ctx)) {
      bought.add(ctx);
      const { tokenId, size, buyPrice } = ctx.params;
      return { kind: 'place', tokenId, side: 'BUY', price: Math.round(buyPrice * MICROS), size: Math.round(size * MICROS), orderType: 'FAK', tag: 'buy' };
    }
    return ask(ctx);
  },
  onFill({ ctx }) {
    return ask(ctx);
  },
  onLifecycle({ ctx, event }) {
    return event.type === 'ParamsUpdated' ? ask(ctx) : undefined;
  },
});
