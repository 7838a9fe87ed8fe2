/**
 * rewards-mm: a market maker paid mostly by liquidity rewards (docs/strategies/rewards-mm.md).
 *
 * On each market that pays rewards (`market.rules.rewards`) it keeps one order on each side of
 * the one book, both at `min_size` or more and inside `max_spread` of the size-cutoff-adjusted
 * midpoint, so every sample scores both sides (a two-sided maker keeps its whole score; a
 * one-sided one a third, or nothing outside [0.10, 0.90]):
 * - the bid side is a BUY of the first outcome (YES), or a SELL of the second (NO) it holds;
 * - the ask side is a BUY of NO at 1 - ask (a NO bid is a YES ask), or a SELL of YES it holds.
 *   So it needs no inventory to quote both sides, and it sells what it holds before it buys more.
 * It leans on inventory (the side that would add to a net position past `maxInventory` is
 * pulled), keeps its queue (a resting order is replaced only when the wanted price moves
 * `replaceTicks` or more, or leaves the band), and pulls everything while the midpoint moves
 * fast, near resolution (midpoint outside [edge, 1 - edge]) and once the market closes.
 *
 * Prices and sizes are Micros (0.52 is 520_000); `px` and `qty` convert.
 */
import { adjustedMidpoint, defineStrategy, MAX_AMOUNT, MICROS_PER_UNIT, px, qty, roundToTick, z } from 'clobot';
import type { MarketSnapshot, OrderIntent, RewardRules, StrategyContext, TokenId } from 'clobot';

const Params = z
  .object({
    /** Shares per order; raised to the market's reward minimum (and order minimum) when below. */
    size: z.number().positive().max(MAX_AMOUNT).default(100),
    /** Where to quote inside the band: this share of `max_spread` from the adjusted midpoint (0 at it, 1 at the edge). */
    bandShare: z.number().min(0).max(0.95).default(0.5),
    /** Replace a resting order only when the wanted price moved this many ticks (or left the band). */
    replaceTicks: z.number().int().min(1).default(2),
    /** Net shares (YES held - NO held) past which the side that adds to them is pulled. */
    maxInventory: z.number().positive().max(MAX_AMOUNT).default(300),
    /** A midpoint move of this many cents within `fastWindowMs` pulls the quotes... */
    fastMoveCents: z.number().positive().default(3),
    fastWindowMs: z.number().int().positive().default(10_000),
    /** ...for this long. */
    cooldownMs: z.number().int().min(0).default(30_000),
    /** Near resolution: no quotes while the midpoint is below this or above 1 minus it. */
    edge: z.number().min(0).max(0.5).default(0.05),
    /** Books older than this are not quoted on. */
    maxBookAgeMs: z.number().int().positive().default(15_000),
  })
  .strict()
  // an order that alone would pass the inventory cap is never placed: the strategy would sit idle
  .refine((p) => p.size <= p.maxInventory, { message: 'must be at most maxInventory (an order of size would pass the inventory cap, so no side would ever be quoted)', path: ['size'] });

type P = z.output<typeof Params>;

/** Per market: what rests (YES-terms prices), the midpoint's recent path, and pulls. */
interface MarketState {
  bid: number | undefined;
  ask: number | undefined;
  mids: { at: number; mid: number }[];
  pausedUntil: number;
  closed: boolean;
}

interface State {
  readonly markets: Map<string, MarketState>;
}

const NONE = (tokenId: TokenId): OrderIntent => ({ kind: 'quote', tokenId, bids: [], asks: [] });

/** Both tokens of the market, YES first, when the strategy trades both. */
function pair(ctx: StrategyContext<P>, market: MarketSnapshot): [MarketSnapshot, MarketSnapshot] | undefined {
  const other = market.complementTokenId === undefined ? undefined : ctx.market(market.complementTokenId);
  if (other === undefined) return undefined;
  return market.outcomeIndex === 0 ? [market, other] : [other, market];
}

function marketState(state: State, conditionId: string): MarketState {
  let m = state.markets.get(conditionId);
  if (m === undefined) {
    m = { bid: undefined, ask: undefined, mids: [], pausedUntil: 0, closed: false };
    state.markets.set(conditionId, m);
  }
  return m;
}

/** Pulls both tokens' quotes and forgets what rested. */
function pull(m: MarketState, yes: TokenId, no: TokenId): OrderIntent[] {
  m.bid = undefined;
  m.ask = undefined;
  return [NONE(yes), NONE(no)];
}

/** True when the midpoint moved `fastMoveCents` within the window (the window then restarts). */
function fastMove(ctx: StrategyContext<P>, m: MarketState, mid: number, now: number): boolean {
  m.mids.push({ at: now, mid });
  while (m.mids.length > 0 && m.mids[0]!.at < now - ctx.params.fastWindowMs) m.mids.shift();
  let lo = mid;
  let hi = mid;
  for (const x of m.mids) {
    lo = Math.min(lo, x.mid);
    hi = Math.max(hi, x.mid);
  }
  if (hi - lo < ctx.params.fastMoveCents * 10_000) return false;
  m.mids = [{ at: now, mid }];
  return true;
}

/**
 * The wanted price of one side: `bandShare` of the band from the midpoint, on the tick grid (away
 * from the midpoint, or the tick nearer it when that one is outside the band: a coarse tick and
 * a narrow band), never crossing the book.
 */
function wanted(rules: RewardRules, tick: number, mid: number, share: number, side: 'bid' | 'ask', best: { bid: number | undefined; ask: number | undefined }): number | undefined {
  const band = rules.maxSpreadCents * 10_000;
  const d = share * band;
  let p = side === 'bid' ? roundToTick(Math.round(mid - d), tick, 'down') : roundToTick(Math.round(mid + d), tick, 'up');
  if (Math.abs(p - mid) >= band) p = side === 'bid' ? p + tick : p - tick;
  // post-only: a bid at or above the best ask (an ask at or below the best bid) would take
  if (side === 'bid' && best.ask !== undefined && p >= best.ask) p = best.ask - tick;
  if (side === 'ask' && best.bid !== undefined && p <= best.bid) p = best.bid + tick;
  const inBand = Math.abs(p - mid) < band;
  return inBand && p >= tick && p <= MICROS_PER_UNIT - tick ? p : undefined;
}

/** Keeps the resting price unless the new one moved `replaceTicks` or the old one left the band. */
function keep(old: number | undefined, next: number | undefined, tick: number, mid: number, rules: RewardRules, replaceTicks: number): number | undefined {
  if (next === undefined) return undefined;
  if (old === undefined) return next;
  const oldInBand = Math.abs(old - mid) < rules.maxSpreadCents * 10_000;
  return oldInBand && Math.abs(next - old) < replaceTicks * tick ? old : next;
}

function quoteMarket(ctx: StrategyContext<P>, state: State, market: MarketSnapshot): OrderIntent[] | undefined {
  const rules = market.rules.rewards;
  const tokens = pair(ctx, market);
  if (rules === undefined || tokens === undefined) return undefined;
  const [yes, no] = tokens;
  const m = marketState(state, market.conditionId);
  const now = ctx.clock.now();
  if (m.closed || !yes.rules.acceptingOrders) return pull(m, yes.tokenId, no.tokenId);
  if (yes.book === undefined || yes.ageMs > ctx.params.maxBookAgeMs) return undefined;
  const mid = adjustedMidpoint(yes.book, rules.minSize);
  if (mid === undefined) return pull(m, yes.tokenId, no.tokenId);
  if (fastMove(ctx, m, mid, now)) m.pausedUntil = now + ctx.params.cooldownMs;
  const edge = px(ctx.params.edge);
  if (now < m.pausedUntil || mid < edge || mid > MICROS_PER_UNIT - edge) return pull(m, yes.tokenId, no.tokenId);

  const tick = yes.rules.tickSize;
  const best = { bid: yes.bestBid, ask: yes.bestAsk };
  const bid = keep(m.bid, wanted(rules, tick, mid, ctx.params.bandShare, 'bid', best), tick, mid, rules, ctx.params.replaceTicks);
  const ask = keep(m.ask, wanted(rules, tick, mid, ctx.params.bandShare, 'ask', best), tick, mid, rules, ctx.params.replaceTicks);
  m.bid = bid;
  m.ask = ask;
  const size = Math.max(qty(ctx.params.size), rules.minSize, yes.rules.minOrderSize);
  const heldYes = ctx.position(yes.tokenId).size;
  const heldNo = ctx.position(no.tokenId).size;
  const net = heldYes - heldNo;
  const cap = qty(ctx.params.maxInventory);
  const yesQuote: { bids: { price: number; size: number }[]; asks: { price: number; size: number }[] } = { bids: [], asks: [] };
  const noQuote: { bids: { price: number; size: number }[]; asks: { price: number; size: number }[] } = { bids: [], asks: [] };
  // the bid side: sell NO we hold at 1 - bid, else buy YES (unless long past the cap)
  if (bid !== undefined) {
    if (heldNo >= size) noQuote.asks.push({ price: MICROS_PER_UNIT - bid, size });
    else if (net + size <= cap) yesQuote.bids.push({ price: bid, size });
  }
  // the ask side: sell YES we hold at ask, else buy NO at 1 - ask (unless short past the cap)
  if (ask !== undefined) {
    if (heldYes >= size) yesQuote.asks.push({ price: ask, size });
    else if (-(net - size) <= cap) noQuote.bids.push({ price: MICROS_PER_UNIT - ask, size });
  }
  return [
    { kind: 'quote', tokenId: yes.tokenId, ...yesQuote },
    { kind: 'quote', tokenId: no.tokenId, ...noQuote },
  ];
}

export default defineStrategy({
  name: 'rewards-mm',
  description: 'Quotes both sides of reward markets inside max_spread at min_size or more, for liquidity rewards; leans on inventory, keeps its queue, pulls on fast moves and near resolution.',
  params: Params,
  init: (): State => ({ markets: new Map() }),
  onBook({ ctx, state, market }) {
    return quoteMarket(ctx, state, market);
  },
  onFill({ ctx, state, fill }) {
    const market = ctx.market(fill.tokenId);
    if (market === undefined) return undefined;
    // the filled side rests no more: quote it again (the kept price may stay)
    const m = marketState(state, market.conditionId);
    m.bid = undefined;
    m.ask = undefined;
    return quoteMarket(ctx, state, market);
  },
  onLifecycle({ ctx, state, event }) {
    if (event.type !== 'MarketClosed' && event.type !== 'MarketResolved') return undefined;
    const m = marketState(state, event.conditionId);
    m.closed = true;
    const out: OrderIntent[] = [];
    for (const tokenId of ctx.tokenIds) if (ctx.market(tokenId)?.conditionId === event.conditionId) out.push(NONE(tokenId));
    return out;
  },
  onStop() {
    return { kind: 'cancelAll' };
  },
});
