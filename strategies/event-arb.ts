/**
 * Neg-risk event arbitrage. The outcome markets of a neg-risk event are mutually exclusive: exactly
 * one YES pays 1. So one YES of every outcome (a complete set) is worth 1 at resolution, and one
 * NO of every outcome is worth n - 1 (all but the winner pay). When the asks for a complete set,
 * depth-weighted for the size and with the taker fees, cost less than that payout by a margin, the
 * strategy buys the whole set in ONE basket (every leg or, on a partial fill, the filled legs
 * sold back within a loss cap) and holds it to resolution, or sells it back as a basket when the
 * bids for it pay at least what resolution would (the sum reverted past 1).
 *
 * It never trades an augmented event (an unlisted "Other" outcome: a set of the listed YES does
 * not pay 1), an event whose every outcome market the run does not follow, or a book older than
 * `maxBookAgeMs`. One basket per event at a time, then a cooldown. docs/strategies/event-arb.md.
 */
import { defineStrategy, MICROS_PER_UNIT, qty, roundToLot, toMicros, z } from 'clobot';
import type { BasketEvent, BasketIntent, EventInfo, MarketSnapshot, Micros, OrderIntent, StrategyContext } from 'clobot';

const Params = z
  .object({
    /** Least edge per set, after fees, for a basket to go (USDC per set, e.g. 0.01 = one cent). */
    margin: z.number().min(0).max(0.5).default(0.01),
    /** Most sets per basket. */
    maxSets: z.number().positive().default(50),
    /** Most collateral committed to one event (its held sets at cost and the basket), USDC. */
    eventCap: z.number().positive().default(100),
    /** Also buy every NO when the YES bids sum above 1 plus costs (the NO set pays n - 1). */
    buyNoSets: z.boolean().default(true),
    /** FOK: a leg fills completely or not at all; FAK: a leg takes what there is. */
    orderType: z.enum(['FOK', 'FAK']).default('FOK'),
    /** What a partial basket does: sell the filled legs back (within the cap) or keep them. */
    onPartial: z.enum(['unwind', 'hold']).default('unwind'),
    /**
     * The unwind's loss cap is what selling every leg back into today's bids would lose, times
     * `unwindSlack` (room for the book to move), at least `minUnwindLoss`; a basket whose cap
     * would pass `maxUnwindLoss` (USDC) is made smaller or not sent.
     */
    unwindSlack: z.number().min(1).default(1.5),
    minUnwindLoss: z.number().min(0).default(0.1),
    maxUnwindLoss: z.number().positive().default(5),
    /** Sell a held set back when its bids pay at least this share of its payout after fees (1: what resolution pays); 0: hold to resolution. */
    exitAt: z.number().min(0).max(2).default(1),
    /** Wait after a basket's outcome before the event is traded again, ms. */
    cooldownMs: z.number().int().min(0).default(5_000),
    /** Books older than this are not traded on, ms. */
    maxBookAgeMs: z.number().int().positive().default(10_000),
  })
  .strict();

type P = z.output<typeof Params>;

interface State {
  /** The basket in flight per event (its ref). */
  readonly pending: Map<string, string>;
  /** When each event may be traded again (clock ms). */
  readonly coolUntil: Map<string, number>;
  seq: number;
  readonly counts: { baskets: number; completed: number; unwound: number; partial: number; denied: number; exits: number };
}

/** One leg's walk of the book for a size: the worst price it reaches, its notional and taker fee (USDC). */
interface Walk {
  readonly limit: Micros;
  readonly notional: number;
  readonly fee: number;
}

/** Walks the asks (buy) or bids (sell) of a token for `size` shares; undefined when the depth is short. */
function walk(market: MarketSnapshot, side: 'BUY' | 'SELL', size: Micros): Walk | undefined {
  const levels = side === 'BUY' ? market.book?.asks : market.book?.bids;
  if (levels === undefined) return undefined;
  const rate = market.rules.takerBaseFeeBps / 10_000;
  let left = size;
  let notional = 0;
  let fee = 0;
  let limit = 0;
  for (const level of levels) {
    if (left <= 0) break;
    const q = Math.min(left, level.size);
    notional += (level.price * q) / MICROS_PER_UNIT / MICROS_PER_UNIT;
    fee += (rate * Math.min(level.price, MICROS_PER_UNIT - level.price) * q) / MICROS_PER_UNIT / MICROS_PER_UNIT;
    limit = level.price;
    left -= q;
  }
  return left > 0 ? undefined : { limit, notional, fee };
}

/** The sizes worth trying: every depth breakpoint of the legs' books within `most`, largest first. */
function candidateSizes(legs: readonly MarketSnapshot[], side: 'BUY' | 'SELL', most: Micros, least: Micros): Micros[] {
  const sizes = new Set<Micros>([roundToLot(most)]);
  for (const m of legs) {
    let depth = 0;
    for (const level of (side === 'BUY' ? m.book?.asks : m.book?.bids) ?? []) {
      depth += level.size;
      if (depth >= most) break;
      sizes.add(roundToLot(depth));
    }
  }
  return [...sizes].filter((s) => s >= least && s <= most).sort((a, b) => b - a);
}

/** The event's outcome legs of one side (YES or NO of every market), or undefined when one is missing or stale. */
function outcomeLegs(ctx: StrategyContext<P>, event: EventInfo, outcomeIndex: 0 | 1): MarketSnapshot[] | undefined {
  const snapshot = ctx.event(event.id);
  if (snapshot === undefined) return undefined;
  const legs: MarketSnapshot[] = [];
  for (const conditionId of event.marketConditionIds) {
    const leg = snapshot.markets.find((m) => m.conditionId === conditionId && m.outcomeIndex === outcomeIndex);
    if (leg === undefined || leg.book === undefined || leg.ageMs > ctx.params.maxBookAgeMs || !leg.rules.acceptingOrders) return undefined;
    legs.push(leg);
  }
  return legs.length >= 2 ? legs : undefined;
}

/** What the strategy holds of the event at cost, USDC. */
function committed(ctx: StrategyContext<P>, event: EventInfo): number {
  const snapshot = ctx.event(event.id);
  let total = 0;
  for (const m of snapshot?.markets ?? []) {
    const p = ctx.position(m.tokenId);
    if (p.size > 0) total += (p.size * p.avgPrice) / MICROS_PER_UNIT / MICROS_PER_UNIT;
  }
  return total;
}

/**
 * The best basket buying one of each leg: the largest size within the caps whose cost per set
 * (depth-weighted asks plus taker fees) is at most `payout - margin`. Undefined: no edge.
 */
function buySet(ctx: StrategyContext<P>, legs: readonly MarketSnapshot[], payout: number): { size: Micros; walks: Walk[]; cost: number; cap: number } | undefined {
  const { margin, maxSets, eventCap, unwindSlack, minUnwindLoss, maxUnwindLoss } = ctx.params;
  const least = Math.max(...legs.map((l) => l.rules.minOrderSize));
  const room = eventCap - committed(ctx, legs[0]!.event!);
  if (room <= 0) return undefined;
  const most = Math.min(qty(maxSets), roundToLot(toMicros((room / payout).toFixed(6))));
  for (const size of candidateSizes(legs, 'BUY', most, least)) {
    const walks = legs.map((l) => walk(l, 'BUY', size));
    if (walks.some((w) => w === undefined)) continue;
    const ws = walks as Walk[];
    const cost = ws.reduce((sum, w) => sum + w.notional + w.fee, 0);
    const sets = size / MICROS_PER_UNIT;
    if (cost > room || cost / sets > payout - margin) continue;
    // what selling every leg back into the bids would lose now: the partial basket's worst case
    const back = legs.map((l) => walk(l, 'SELL', size));
    if (back.some((w) => w === undefined)) continue;
    const spread = cost - (back as Walk[]).reduce((sum, w) => sum + w.notional - w.fee, 0);
    const cap = Math.max(minUnwindLoss, unwindSlack * spread);
    if (cap <= maxUnwindLoss) return { size, walks: ws, cost, cap };
  }
  return undefined;
}

function basket(ctx: StrategyContext<P>, state: State, event: EventInfo, legs: readonly MarketSnapshot[], side: 'BUY' | 'SELL', size: Micros, walks: readonly Walk[], cap: number): BasketIntent {
  const ref = `arb-${event.id}-${++state.seq}`;
  state.pending.set(event.id, ref);
  state.counts.baskets++;
  ctx.metric('baskets', state.counts.baskets);
  return {
    kind: 'basket',
    legs: legs.map((l, i) => ({ tokenId: l.tokenId, side, price: walks[i]!.limit, size })),
    orderType: ctx.params.orderType,
    onPartial: ctx.params.onPartial,
    maxUnwindLoss: toMicros(cap.toFixed(6)),
    ref,
    group: `event-${event.id}`,
  };
}

/** Sells a held set back when its bids pay at least `exitAt` of its payout, after fees. */
function exit(ctx: StrategyContext<P>, state: State, event: EventInfo, legs: readonly MarketSnapshot[], payout: number): OrderIntent | undefined {
  if (!(ctx.params.exitAt > 0)) return undefined;
  const held = Math.min(...legs.map((l) => ctx.position(l.tokenId).size));
  const size = roundToLot(held);
  if (size <= 0 || size < Math.max(...legs.map((l) => l.rules.minOrderSize))) return undefined;
  const walks = legs.map((l) => walk(l, 'SELL', size));
  if (walks.some((w) => w === undefined)) return undefined;
  const ws = walks as Walk[];
  const proceeds = ws.reduce((sum, w) => sum + w.notional - w.fee, 0);
  if (proceeds < ctx.params.exitAt * payout * (size / MICROS_PER_UNIT)) return undefined;
  // a partial exit is unwound by buying the sold legs back: its worst case is the spread
  const back = legs.map((l) => walk(l, 'BUY', size));
  if (back.some((w) => w === undefined)) return undefined;
  const spread = (back as Walk[]).reduce((sum, w) => sum + w.notional + w.fee, 0) - proceeds;
  const cap = Math.max(ctx.params.minUnwindLoss, ctx.params.unwindSlack * spread);
  if (cap > ctx.params.maxUnwindLoss) return undefined;
  state.counts.exits++;
  ctx.metric('exits', state.counts.exits);
  return basket(ctx, state, event, legs, 'SELL', size, ws, cap);
}

function consider(ctx: StrategyContext<P>, state: State, event: EventInfo | undefined): OrderIntent | undefined {
  // an augmented event has an unlisted outcome: a set of the listed ones does not pay 1
  if (event === undefined || !event.negRisk || event.augmented) return undefined;
  if (state.pending.has(event.id) || ctx.clock.now() < (state.coolUntil.get(event.id) ?? 0)) return undefined;
  const yes = outcomeLegs(ctx, event, 0);
  if (yes === undefined) return undefined;
  const n = yes.length;
  const no = ctx.params.buyNoSets ? outcomeLegs(ctx, event, 1) : undefined;
  // held sets first: sold back when the sum reverted past what resolution pays
  const out = exit(ctx, state, event, yes, 1) ?? (no === undefined ? undefined : exit(ctx, state, event, no, n - 1));
  if (out !== undefined) return out;
  const cheap = buySet(ctx, yes, 1);
  if (cheap !== undefined) return basket(ctx, state, event, yes, 'BUY', cheap.size, cheap.walks, cheap.cap);
  const rich = no === undefined ? undefined : buySet(ctx, no, n - 1);
  if (rich !== undefined && no !== undefined) return basket(ctx, state, event, no, 'BUY', rich.size, rich.walks, rich.cap);
  return undefined;
}

function done(ctx: StrategyContext<P>, state: State, ref: string | undefined): void {
  for (const [eventId, pending] of state.pending) {
    if (pending !== ref) continue;
    state.pending.delete(eventId);
    state.coolUntil.set(eventId, ctx.clock.now() + ctx.params.cooldownMs);
  }
}

export default defineStrategy({
  name: 'event-arb',
  description: 'Buys complete sets of a neg-risk event (every YES, or every NO) in one basket when they cost less than they pay',
  params: Params,
  init: (): State => ({ pending: new Map(), coolUntil: new Map(), seq: 0, counts: { baskets: 0, completed: 0, unwound: 0, partial: 0, denied: 0, exits: 0 } }),
  onBook({ ctx, state, market }) {
    return consider(ctx, state, market.event);
  },
  onBasket({ ctx, state, event }: { ctx: StrategyContext<P>; state: State; event: BasketEvent }) {
    const c = state.counts;
    if (event.type === 'BasketCompleted') c.completed++;
    else if (event.type === 'BasketUnwound') c.unwound++;
    else c.partial++;
    ctx.metric('completed', c.completed);
    ctx.metric('unwound', c.unwound);
    ctx.metric('partial', c.partial);
    if (event.type === 'BasketUnwound') ctx.log.info('basket unwound', { ref: event.ref, loss: event.loss, cap: event.maxUnwindLoss, flat: event.flat });
    done(ctx, state, event.ref);
  },
  onOrderEvent({ ctx, state, event }) {
    // a basket risk denied is one OrderDenied with the basket's ref: the event is free again
    if (event.type !== 'OrderDenied' || event.ref === undefined || ![...state.pending.values()].includes(event.ref)) return;
    state.counts.denied++;
    ctx.metric('denied', state.counts.denied);
    done(ctx, state, event.ref);
  },
});
