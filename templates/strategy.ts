/**
 * __NAME__: quotes one bid and one ask on every token it trades, a tick inside the best prices
 * when the spread leaves room, and stops buying once it holds `maxInventory` shares.
 *
 * The same file runs in a backtest, in paper mode and live. Prices and sizes are integers of
 * 1e-6 (Micros): 0.52 is 520_000, 10 shares are 10_000_000; `px`, `qty`, `toMicros` and
 * `fromMicros` convert, `roundToTick` puts a price on the market's grid.
 */
import { defineStrategy, fromMicros, MICROS_PER_UNIT, qty, roundToTick, z, type MarketSnapshot, type OrderIntent, type StrategyContext } from 'clobot';

// The config's `params` are parsed with this schema before the run starts: a typo or a bad value
// is an error naming the key and file:line. `ctx.params` has its output type, with no cast.
const Params = z
  .object({
    /** Shares per quote. */
    size: z.number().positive().default(10),
    /** Ticks inside the best bid and ask (0 joins them). */
    improveTicks: z.number().int().min(0).default(1),
    /** Stop buying a token once holding this many shares. */
    maxInventory: z.number().positive().default(100),
  })
  .strict();

type Params = z.output<typeof Params>;

/** This run's state: `init` builds it, every hook gets it as `state` (one per run, never shared). */
interface State {
  fills: number;
  bought: number;
  /** Trading is halted (the halt file, SIGUSR2, the kill switch, ...): quote nothing until it resumes. */
  halted: boolean;
}

/** The bid and ask wanted on one token: a quote intent (the engine keeps orders that match it). */
function quote(ctx: StrategyContext<Params>, market: MarketSnapshot): OrderIntent | undefined {
  const { bestBid, bestAsk, rules } = market;
  if (bestBid === undefined || bestAsk === undefined) return undefined;
  const tick = rules.tickSize;
  let bid = roundToTick(bestBid + ctx.params.improveTicks * tick, tick, 'down');
  let ask = roundToTick(bestAsk - ctx.params.improveTicks * tick, tick, 'up');
  if (ask <= bid) {
    // no room inside the spread: join the best prices
    bid = roundToTick(bestBid, tick, 'down');
    ask = roundToTick(bestAsk, tick, 'up');
  }
  // The two outcomes of a market pay 1 together: a BUY here at p and our own BUY of the other
  // outcome at q with p + q >= 1 would trade with ourselves (the venue mints the pair), as would
  // two SELLs with p + q <= 1; risk denies such an order (SELF_CROSS). When the other outcome's
  // quote was set on an older book, keep this one a tick clear of it.
  const other = market.complementTokenId === undefined ? [] : ctx.openOrders(market.complementTokenId);
  for (const o of other) {
    if (o.side === 'BUY') bid = Math.min(bid, MICROS_PER_UNIT - o.price - tick);
    else ask = Math.max(ask, MICROS_PER_UNIT - o.price + tick);
  }
  const size = Math.max(qty(ctx.params.size), rules.minOrderSize);
  // this strategy's own position: other strategies of the run on the token hold their own
  // (`ctx.account()` is the run's account: cash, every position, PnL)
  const held = ctx.position(market.tokenId).size;
  const buy = held + size <= qty(ctx.params.maxInventory) && bid > 0;
  const sellSize = Math.min(size, held);
  const sell = sellSize >= rules.minOrderSize && ask < MICROS_PER_UNIT;
  return {
    kind: 'quote',
    tokenId: market.tokenId,
    bids: buy ? [{ price: bid, size }] : [],
    asks: sell ? [{ price: ask, size: sellSize }] : [],
    // echoed on every event of the orders it places (and in the store): `fill.group === 'quote'`
    group: 'quote',
  };
}

export default defineStrategy({
  name: '__NAME__',
  params: Params,

  init: (): State => ({ fills: 0, bought: 0, halted: false }),

  /** A new book on one of this strategy's tokens. */
  onBook({ ctx, state, market }) {
    return state.halted ? undefined : quote(ctx, market);
  },

  /** A fill of one of our orders (always after that order's OrderAccepted): quote again at once. */
  onFill({ ctx, state, fill }) {
    state.fills++;
    if (fill.side === 'BUY') state.bought += fill.size;
    ctx.log.info('fill', { side: fill.side, price: fromMicros(fill.price), size: fromMicros(fill.size) });
    const market = ctx.market(fill.tokenId);
    return market === undefined || state.halted ? undefined : quote(ctx, market);
  },

  /**
   * The run's lifecycle: while trading is halted every order is denied (TRADING_HALTED) and our
   * resting orders are cancelled, so ask for none until `Resumed` (the next book quotes again).
   */
  onLifecycle({ state, event }) {
    if (event.type === 'Halted') state.halted = true;
    else if (event.type === 'Resumed') state.halted = false;
  },

  /** Accepted, rejected by the venue, denied by risk (`event.code`: a DenyCode), cancelled, expired. */
  onOrderEvent({ ctx, event }) {
    if (event.type === 'OrderDenied') ctx.log.warn('denied', { code: event.code, reason: event.reason });
  },

  /** The run is stopping: cancel what rests. */
  onStop({ ctx, state }) {
    ctx.log.info('stopping', { fills: state.fills, bought: fromMicros(state.bought) });
    return { kind: 'cancelAll' };
  },
});
