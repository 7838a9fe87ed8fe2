/**
 * Near resolution. Close to a market's end date (`rules.endDate`), an outcome priced near
 * certainty (its ask within [`minPrice`, `maxPrice`]) usually wins: it pays 1 at resolution, a
 * few cents over its price. Within `windowMs` before the end date the strategy buys that outcome
 * at the ask (FAK) in steps of `size` shares, up to `maxPerMarket` USDC of cost in the market and
 * `maxTotal` over every market, while 1 minus the ask and the taker fee leaves at least `minEdge`.
 * It holds to settlement: the market closes at its end date and resolves (`MarketClosed`,
 * `MarketResolved`; the engine settles the position at 1 or 0). If the favourite breaks down (its
 * best bid under `stopPrice` on every book for `stopConfirmMs`: not a bid pulled for a moment) it
 * sells what it holds at the bid (FAK) and leaves the market.
 *
 * It does not trade a market without an end date, a book older than `maxBookAgeMs` or wider than
 * `maxSpread`, in the last `minTimeLeftMs` before the end (orders then are cancelled at the
 * close), or a token with an order in flight. docs/strategies/near-resolution.md.
 */
import { defineStrategy, MICROS_PER_UNIT, qty, roundToLot, toMicros, z } from 'clobot';
import type { FillEvent, LifecycleEvent, MarketSnapshot, Micros, OrderIntent, StrategyContext } from 'clobot';

const Params = z
  .object({
    /** Buy only when the ask is within [minPrice, maxPrice] (USDC per share). */
    minPrice: z.number().gt(0.5).lt(1).default(0.9),
    maxPrice: z.number().gt(0.5).lt(1).default(0.98),
    /** Least payout left per share after the ask and the taker fee (USDC per share). */
    minEdge: z.number().min(0).max(0.5).default(0.01),
    /** Buy only within this long before the market's end date, ms. */
    windowMs: z.number().int().positive().default(1_800_000),
    /** No entry in the last this long before the end date, ms. */
    minTimeLeftMs: z.number().int().min(0).default(2_000),
    /** Shares per entry. */
    size: z.number().positive().max(1_000_000).default(20),
    /** Most cost held in one market (both outcomes, plus orders in flight), USDC. */
    maxPerMarket: z.number().positive().max(1_000_000_000).default(50),
    /** Most cost held over every market, USDC. */
    maxTotal: z.number().positive().max(1_000_000_000).default(200),
    /** Sell what is held (at the bid) when the best bid falls under this (USDC per share): the favourite broke down. */
    stopPrice: z.number().gt(0).lt(1).default(0.8),
    /**
     * ...and stays under it on every book for this long, ms: a bid gone for a moment (a maker
     * cancelling its ladder before placing the new one) is no breakdown. 0: at the first book.
     */
    stopConfirmMs: z.number().int().min(0).max(600_000).default(1_000),
    /** Wait between two entries in one market, ms. */
    entryGapMs: z.number().int().min(0).default(5_000),
    /** No trade when the spread is wider than this (USDC per share). */
    maxSpread: z.number().positive().max(1).default(0.03),
    /** Books older than this are not traded on, ms. */
    maxBookAgeMs: z.number().int().positive().default(10_000),
  })
  .strict()
  .refine((p) => p.minPrice <= p.maxPrice, { message: 'minPrice must be at most maxPrice' })
  .refine((p) => p.stopPrice < p.minPrice, { message: 'stopPrice must be below minPrice (a stop at the entry price would sell what it just bought)' })
  .refine((p) => p.size <= p.maxPerMarket / p.minPrice, { message: 'size must fit in maxPerMarket at minPrice' });

type P = z.output<typeof Params>;

interface State {
  /** When each market (condition id) may be entered again, clock ms. */
  readonly nextEntry: Map<string, number>;
  /** Markets left for good: stopped out, closed or resolved. */
  readonly done: Set<string>;
  /** Since when each held token's bid has been under the stop on every book, clock ms. */
  readonly underStop: Map<string, number>;
  /** Tokens bought and not sold: their market and average entry (USDC). */
  readonly held: Map<string, { conditionId: string; price: number }>;
  readonly counts: { entries: number; stopped: number; won: number; lost: number };
}

/** What the strategy has committed, USDC: held cost and BUY orders in flight, in one market or every one. */
function committed(ctx: StrategyContext<P>, conditionId?: string): number {
  let total = 0;
  for (const p of ctx.positions()) {
    if (p.size <= 0) continue;
    if (conditionId !== undefined && ctx.market(p.tokenId)?.conditionId !== conditionId) continue;
    total += (p.size * p.avgPrice) / MICROS_PER_UNIT / MICROS_PER_UNIT;
  }
  for (const o of ctx.openOrders()) {
    if (o.side !== 'BUY' || (conditionId !== undefined && o.conditionId !== conditionId)) continue;
    total += (o.price * (o.size - o.filled)) / MICROS_PER_UNIT / MICROS_PER_UNIT;
  }
  return total;
}

function inFlight(ctx: StrategyContext<P>, market: MarketSnapshot): boolean {
  return ctx.openOrders(market.tokenId).length > 0 || (market.complementTokenId !== undefined && ctx.openOrders(market.complementTokenId).length > 0);
}

/** Sells what is held of the token at the bid once its bid has been under the stop for `stopConfirmMs`. */
function stop(ctx: StrategyContext<P>, state: State, market: MarketSnapshot): OrderIntent | undefined {
  const held = ctx.position(market.tokenId).size;
  const bid = market.bestBid;
  const now = ctx.clock.now();
  if (held <= 0 || bid === undefined || bid >= toMicros(ctx.params.stopPrice.toFixed(6))) {
    state.underStop.delete(market.tokenId);
    return undefined;
  }
  const since = state.underStop.get(market.tokenId) ?? now;
  state.underStop.set(market.tokenId, since);
  if (now - since < ctx.params.stopConfirmMs || held < market.rules.minOrderSize) return undefined;
  if (!state.done.has(market.conditionId)) {
    state.done.add(market.conditionId);
    state.counts.stopped++;
    ctx.metric('stopped', state.counts.stopped);
    ctx.log.info('stop', { tokenId: market.tokenId, bid: bid / MICROS_PER_UNIT, underMs: now - since, entry: state.held.get(market.tokenId)?.price });
  }
  return { kind: 'place', tokenId: market.tokenId, side: 'SELL', price: bid, size: held, orderType: 'FAK', ref: 'nr-stop' };
}

/** Buys the token at the ask when it is the near-certain outcome of a market close to its end. */
function enter(ctx: StrategyContext<P>, state: State, market: MarketSnapshot): OrderIntent | undefined {
  const p = ctx.params;
  const now = ctx.clock.now();
  const end = market.rules.endDate;
  if (end === undefined || state.done.has(market.conditionId) || !market.rules.acceptingOrders) return undefined;
  const left = end - now;
  if (left > p.windowMs || left < p.minTimeLeftMs) return undefined;
  if (now < (state.nextEntry.get(market.conditionId) ?? 0)) return undefined;
  const { bestAsk: ask, bestBid: bid } = market;
  if (ask === undefined || bid === undefined || market.ageMs > p.maxBookAgeMs) return undefined;
  const askP = ask / MICROS_PER_UNIT;
  if (askP < p.minPrice || askP > p.maxPrice || (ask - bid) / MICROS_PER_UNIT > p.maxSpread) return undefined;
  // the stop would fire at once: the book is already broken
  if (bid / MICROS_PER_UNIT < p.stopPrice) return undefined;
  const fee = (market.rules.takerBaseFeeBps / 10_000) * Math.min(askP, 1 - askP);
  if (1 - askP - fee < p.minEdge) return undefined;
  const room = Math.min(p.maxPerMarket - committed(ctx, market.conditionId), p.maxTotal - committed(ctx));
  const size: Micros = Math.min(qty(p.size), roundToLot(toMicros(Math.max(0, room / askP).toFixed(6))));
  if (size <= 0 || size < market.rules.minOrderSize) return undefined;
  state.nextEntry.set(market.conditionId, now + p.entryGapMs);
  state.counts.entries++;
  ctx.metric('entries', state.counts.entries);
  ctx.log.info('entry', { tokenId: market.tokenId, ask: askP, size: size / MICROS_PER_UNIT, leftMs: left });
  return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price: ask, size, orderType: 'FAK', ref: 'nr-entry' };
}

function consider(ctx: StrategyContext<P>, state: State, market: MarketSnapshot): OrderIntent | undefined {
  if (inFlight(ctx, market) || !market.rules.acceptingOrders) return undefined;
  return stop(ctx, state, market) ?? enter(ctx, state, market);
}

/** The market resolved: each token held counts as won or lost (the engine settled it at 1 or 0). */
function settled(ctx: StrategyContext<P>, state: State, event: Extract<LifecycleEvent, { type: 'MarketResolved' }>): void {
  state.done.add(event.conditionId);
  for (const tokenId of event.tokenIds) {
    const h = state.held.get(tokenId);
    if (h === undefined) continue;
    state.held.delete(tokenId);
    const won = event.winnerTokenId === tokenId;
    if (won) state.counts.won++;
    else state.counts.lost++;
    ctx.metric('won', state.counts.won);
    ctx.metric('lost', state.counts.lost);
    ctx.log.info('settled', { tokenId, won, entry: h.price });
  }
}

export default defineStrategy({
  name: 'near-resolution',
  description: 'Buys the outcome priced near certainty close to its end date and holds it to settlement; sells if the price breaks down',
  params: Params,
  init: (): State => ({ nextEntry: new Map(), done: new Set(), underStop: new Map(), held: new Map(), counts: { entries: 0, stopped: 0, won: 0, lost: 0 } }),
  onBook({ ctx, state, market }) {
    return consider(ctx, state, market);
  },
  onFill({ ctx, state, fill }: { ctx: StrategyContext<P>; state: State; fill: FillEvent }) {
    const position = ctx.position(fill.tokenId);
    if (position.size <= 0) {
      state.held.delete(fill.tokenId);
      return;
    }
    const conditionId = ctx.market(fill.tokenId)?.conditionId ?? '';
    state.held.set(fill.tokenId, { conditionId, price: position.avgPrice / MICROS_PER_UNIT });
  },
  onLifecycle({ ctx, state, event }: { ctx: StrategyContext<P>; state: State; event: LifecycleEvent }) {
    if (event.type === 'MarketClosed') state.done.add(event.conditionId);
    else if (event.type === 'MarketResolved') settled(ctx, state, event);
  },
});
