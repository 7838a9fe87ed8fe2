/**
 * The annotated strategy template. Copy this file, rename it, fill in the hooks you need, and
 * point a config at it:
 *
 *   strategies:
 *     - id: mine
 *       module: strategies/my-strategy.ts
 *       params: { size: 5 }
 *
 * A strategy is a plain object made with `defineStrategy` (strategy API version 2). The engine
 * calls its hooks with ONE object argument (new fields never break you): the run's context
 * `ctx`, your own `state` for this run (what `init` returned) and the input. It sends whatever
 * intents a hook returns through risk and the batcher. Everything you receive is a frozen
 * snapshot: read it, do not mutate it; keep what you need to remember in `state`. A hook that
 * throws marks the strategy FAULTED: it stops, its orders are cancelled, and the other
 * strategies go on.
 *
 * Money is exact: prices and sizes are integer micro-units (Micros). 0.52 is 520_000; 10 shares
 * is 10_000_000. `px('0.52')` and `qty('10')` convert decimal text (and check it is a price, a
 * size), `fromMicros` converts back, `roundToTick` and `roundToLot` round onto the venue's grids.
 *
 * The same module runs live, in paper mode and in backtests: never read the wall clock (use
 * `ctx.clock.now()`), never set timers (use `timerIntervalMs` + `onTimer`).
 */
import { defineStrategy, fromMicros, px, qty, z, type OrderIntent } from 'clobot';

// 1. Parameters: a zod schema. The config's `params` is parsed with it at load time, so a typo
//    or a bad value stops the run before it starts, naming `strategies.<id>.params.<key>`.
//    `ctx.params` is typed from it.
const Params = z
  .object({
    size: z.number().positive().default(5),
    /** Buy when the best ask is at or below this price. */
    buyBelow: z.string().default('0.30'),
  })
  .strict();

export default defineStrategy({
  // 2. A name (for logs) and the params schema.
  name: 'template',
  params: Params,

  // 3. Optional: call onTimer every N ms of the run's clock (virtual time in backtests).
  timerIntervalMs: 60_000,

  // 4. Optional: your state for one run. Every hook gets it as `state`, typed from what you return.
  init: () => ({ fills: 0 }),

  // 5. Hooks. Each returns an intent, a list of intents, or nothing.
  onStart({ ctx }) {
    ctx.log.info('starting', { tokens: ctx.tokenIds.length, cash: fromMicros(ctx.balance()) });
  },

  /** A new book for one of your tokens (an unchanged book is never delivered twice). */
  onBook({ ctx, market }): OrderIntent | undefined {
    const limit = px(ctx.params.buyBelow);
    if (market.bestAsk === undefined || market.bestAsk > limit) return undefined;
    if (ctx.openOrders(market.tokenId).length > 0) return undefined; // one order at a time
    // Your own position (your fills only; other strategies of the run hold their own, and
    // ctx.account() is the run's account: cash, every position, PnL).
    if (ctx.position(market.tokenId).size > 0) return undefined; // already holding
    // A fill-and-kill buy at the best ask: fills what is there, the rest is cancelled. The `ref`
    // (and a `group`, both optional) comes back on every event of the order, and ctx.order('entry')
    // finds it.
    return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price: market.bestAsk, size: qty(ctx.params.size), orderType: 'FAK', ref: 'entry' };
  },

  /** A fill of one of your orders (after its OrderAccepted; provisional until confirmed). */
  onFill({ ctx, state, fill }) {
    state.fills += 1;
    ctx.log.info('fill', { side: fill.side, price: fromMicros(fill.price), size: fromMicros(fill.size), confirmed: fill.confirmed, fills: state.fills });
  },

  /** Accepted, rejected by the venue, denied (with a DenyCode), cancelled, expired. */
  onOrderEvent({ ctx, event }) {
    if (event.type === 'OrderDenied') ctx.log.warn('denied', { code: event.code, reason: event.reason });
  },

  /** A market closed or resolved, a tick size changed, a market added or removed, a fill's settlement moved. */
  onLifecycle({ ctx, event }) {
    ctx.log.info('lifecycle', { type: event.type });
  },

  onTimer({ ctx, now }) {
    ctx.log.debug('tick', { now, open: ctx.openOrders().length });
  },

  /** The run is stopping: return what should still go out (e.g. cancel everything). */
  onStop() {
    return { kind: 'cancelAll' };
  },

  // Other intents: { kind: 'cancel', clientOrderId }, { kind: 'cancelAll', tokenId? },
  // and { kind: 'quote', tokenId, bids: [{price, size}], asks: [...] }: the set of orders you
  // want resting; the engine keeps matching orders (and their queue position) and changes the rest.
});
