/**
 * Copy trading. Some wallets trade ahead of the price (they know first, or they are faster): the
 * run follows them (`data.wallets`), and this strategy copies each of their buys, scaled and
 * capped, as a FAK order no worse than the leader's price plus a slippage cap, `delayMs` after it
 * heard the trade; when a leader sells a token the strategy holds from copying it, it sells the
 * same share of its own position (all of it when the leader sold all it was seen to buy).
 *
 * One copy per leader transaction, never two: the fills of one transaction heard before its copy
 * goes out are merged into one order (their total size at their average price); fills of it heard
 * after are ignored. Across a restart too: each copy's order carries a ref naming the leader's
 * transaction (`copy:<wallet>:<txHash>`, `exit:…`), the run's store keeps it, and a transaction
 * heard again by a later life of the run (a backfill, a second poll) whose ref finds an order
 * (`ctx.order(ref)`) is not copied again. A position held from an earlier life has no known leader:
 * any followed leader's sell of that token exits it. A copy is skipped, and counted, when the leader is not on `leaders`, the
 * market is on `deny`, off `allow`, or not one the strategy trades, the trade is older than
 * `maxTradeAgeMs` when heard, the book is older than `maxBookAgeMs`, the best price is past the
 * slippage cap, or the caps leave less than the market's minimum size. docs/strategies/copy-trader.md.
 */
import { defineStrategy, MICROS_PER_UNIT, roundToLot, roundToTick, toMicros, z } from 'clobot';
import type { MarketSnapshot, Micros, OrderIntent, StrategyContext, WalletTrade } from 'clobot';

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be a 0x address (0x + 40 hex digits)' })
  .transform((a) => a.toLowerCase());

const Params = z
  .object({
    /** The wallets to copy (any case); empty: every wallet the run follows (`data.wallets`). */
    leaders: z.array(address).default([]),
    /** Our size as a share of the leader's (0.5: half its shares). */
    scale: z.number().positive().max(100).default(0.5),
    /** Wait this long after hearing a trade before copying it, ms (0: at once). */
    delayMs: z.number().int().min(0).max(3_600_000).default(0),
    /** Most USDC one copy may cost (size x limit price). */
    maxTradeUsdc: z.number().positive().default(50),
    /** Most USDC the strategy holds in one market (its positions there at cost plus open buys). */
    maxMarketUsdc: z.number().positive().default(200),
    /** A copy whose scaled size is under the market's minimum is sent at the minimum (when the caps allow) instead of skipped. */
    raiseToMinimum: z.boolean().default(false),
    /** Markets (condition ids) to copy in; empty: every market the strategy trades. */
    allow: z.array(z.string().min(1)).default([]),
    /** Markets (condition ids) never copied in. */
    deny: z.array(z.string().min(1)).default([]),
    /** A copy pays at most the leader's price plus this (USDC per share); a best ask past it skips the copy. */
    maxSlippage: z.number().min(0).max(1).default(0.02),
    /** An exit sells down to the leader's exit price minus this (USDC per share). */
    exitSlippage: z.number().min(0).max(1).default(0.05),
    /**
     * A leader trade heard this long after it happened is not copied, ms (the poll or the recording
     * was late). At most an hour: a copy is remembered across a restart as long as the run keeps
     * its closed orders (`execution.closedOrderRetentionMs`, an hour by default).
     */
    maxTradeAgeMs: z.number().int().positive().max(3_600_000).default(60_000),
    /** Books older than this are not traded on, ms. */
    maxBookAgeMs: z.number().int().positive().default(10_000),
  })
  .strict();

type P = z.output<typeof Params>;

/** The fills of one leader transaction waiting for their copy. */
interface Pending {
  readonly key: string;
  readonly wallet: string;
  readonly txHash: string;
  readonly tokenId: string;
  readonly side: 'BUY' | 'SELL';
  /** Σ size, Σ size x price (micros x micros / 1e6) of the fills heard. */
  size: Micros;
  cost: number;
  readonly ts: number;
  readonly dueAt: number;
}

interface State {
  readonly pending: Map<string, Pending>;
  /** Transactions copied (or decided), by key, with when: a later fill of one is never copied again. */
  readonly done: Map<string, number>;
  /** What each leader was seen to hold of a token from its heard trades (wallet|token -> micros). */
  readonly leaderHeld: Map<string, Micros>;
  /** The leaders whose buys we copied in a token (whose sells make us exit). */
  readonly copiedFrom: Map<string, Set<string>>;
  /** Tokens held at the start (an earlier life of the run copied them): any leader's sell exits them. */
  readonly inherited: Set<string>;
  readonly counts: { heard: number; copies: number; exits: number; merged: number; late: number; skipped: number };
}

/** How long a copied transaction's key is remembered (a fill of it heard later is ignored), ms. */
const REMEMBER_MS = 3_600_000;

export default defineStrategy({
  name: 'copy-trader',
  description: 'copies the buys of leader wallets (scaled, capped, delayed, within a slippage cap) and exits when they exit',
  params: Params,
  timerIntervalMs: 100,
  init: (): State => ({
    pending: new Map(),
    done: new Map(),
    leaderHeld: new Map(),
    copiedFrom: new Map(),
    inherited: new Set(),
    counts: { heard: 0, copies: 0, exits: 0, merged: 0, late: 0, skipped: 0 },
  }),

  onStart({ ctx, state }) {
    for (const pos of ctx.positions()) if (pos.size > 0) state.inherited.add(pos.tokenId);
    if (state.inherited.size > 0) ctx.log.info('positions held from an earlier life of the run: a leader selling one exits it', { tokens: [...state.inherited] });
  },

  onWalletTrade({ ctx, state, trade }) {
    const p = ctx.params;
    if (p.leaders.length > 0 && !p.leaders.includes(trade.wallet)) return;
    state.counts.heard++;
    noteLeader(state, trade);
    const key = `${trade.wallet}|${trade.txHash}`;
    if (state.done.has(key)) {
      state.counts.late++;
      ctx.log.debug('fill of a transaction already copied: ignored', { wallet: trade.wallet, txHash: trade.txHash });
      return;
    }
    // copied by an earlier life of the run: its order, kept by the store, carries the transaction's ref
    if (ctx.order(refOf(trade.side, trade.wallet, trade.txHash)) !== undefined) {
      state.done.set(key, ctx.clock.now());
      state.counts.late++;
      ctx.log.info('leader transaction copied before (an earlier life of the run): not copied again', { wallet: trade.wallet, txHash: trade.txHash, side: trade.side });
      return;
    }
    const held = state.pending.get(key);
    if (held !== undefined) {
      if (held.tokenId === trade.tokenId && held.side === trade.side) {
        held.size += trade.size;
        held.cost += (trade.size * trade.price) / MICROS_PER_UNIT;
        state.counts.merged++;
      }
      return;
    }
    const now = ctx.clock.now();
    const why = skipReason(ctx, state, trade, now);
    if (why !== undefined) return skip(ctx, state, key, now, why, trade);
    state.pending.set(key, {
      key,
      wallet: trade.wallet,
      txHash: trade.txHash,
      tokenId: trade.tokenId,
      side: trade.side,
      size: trade.size,
      cost: (trade.size * trade.price) / MICROS_PER_UNIT,
      ts: trade.ts,
      dueAt: now + p.delayMs,
    });
    return due(ctx, state, now);
  },

  onTimer({ ctx, state, now }) {
    for (const [key, at] of state.done) if (now - at > REMEMBER_MS) state.done.delete(key);
    return due(ctx, state, now);
  },

  onBook({ ctx, state }) {
    return due(ctx, state, ctx.clock.now());
  },

  onStop({ ctx, state }) {
    ctx.log.info('copy-trader counts', { ...state.counts, waiting: state.pending.size });
  },
});

/** Why a leader trade is not copied at all (before any delay), or undefined. */
function skipReason(ctx: StrategyContext<P>, s: State, trade: WalletTrade, now: number): string | undefined {
  const p = ctx.params;
  if (p.deny.includes(trade.conditionId)) return 'market on deny';
  if (p.allow.length > 0 && !p.allow.includes(trade.conditionId)) return 'market not on allow';
  if (ctx.market(trade.tokenId) === undefined) return 'a market the strategy does not trade';
  if (now - trade.ts > p.maxTradeAgeMs) return 'heard too late';
  if (trade.side === 'SELL' && ctx.position(trade.tokenId).size <= 0) return 'an exit of a token we do not hold';
  if (trade.side === 'SELL' && !s.copiedFrom.get(trade.tokenId)?.has(trade.wallet) && !s.inherited.has(trade.tokenId)) return 'an exit of a leader we did not copy in this token';
  return undefined;
}

/** The ref of the order copying a leader transaction (a buy's copy or a sell's exit): one per transaction, kept across restarts. */
function refOf(side: 'BUY' | 'SELL', wallet: string, txHash: string): string {
  return `${side === 'BUY' ? 'copy' : 'exit'}:${wallet}:${txHash}`;
}

/** What a leader holds of a token, as far as its heard trades tell (a sell of more than that counts as all). */
function noteLeader(s: State, trade: WalletTrade): void {
  const k = `${trade.wallet}|${trade.tokenId}`;
  const before = s.leaderHeld.get(k) ?? 0;
  s.leaderHeld.set(k, trade.side === 'BUY' ? before + trade.size : Math.max(0, before - trade.size));
}

function skip(ctx: StrategyContext<P>, s: State, key: string, now: number, why: string, trade: WalletTrade): undefined {
  s.done.set(key, now);
  s.counts.skipped++;
  ctx.metric('skipped', s.counts.skipped);
  ctx.log.info('leader trade not copied', { why, wallet: trade.wallet, txHash: trade.txHash, tokenId: trade.tokenId, side: trade.side });
  return undefined;
}

/** The copies whose delay is over, as orders (each transaction once). */
function due(ctx: StrategyContext<P>, s: State, now: number): OrderIntent[] | undefined {
  if (s.pending.size === 0) return undefined;
  let out: OrderIntent[] | undefined;
  for (const pending of [...s.pending.values()]) {
    if (pending.dueAt > now) continue;
    // no book of the token yet (a run that just started hears the trades of the last seconds first): wait for it while the trade is young
    const market = ctx.market(pending.tokenId);
    if (market !== undefined && market.book === undefined && now - pending.ts <= ctx.params.maxTradeAgeMs) continue;
    s.pending.delete(pending.key);
    s.done.set(pending.key, now);
    const intent = pending.side === 'BUY' ? copyBuy(ctx, s, pending) : copyExit(ctx, s, pending);
    if (intent === undefined) continue;
    (out ??= []).push(intent);
  }
  return out;
}

function fresh(ctx: StrategyContext<P>, market: MarketSnapshot): boolean {
  return market.book !== undefined && market.ageMs <= ctx.params.maxBookAgeMs && market.rules.acceptingOrders;
}

/** USDC the strategy has in a market: its positions there at cost and its open buys. */
function committed(ctx: StrategyContext<P>, conditionId: string): number {
  let total = 0;
  for (const pos of ctx.positions()) {
    if (pos.size <= 0 || ctx.market(pos.tokenId)?.conditionId !== conditionId) continue;
    total += (pos.size * pos.avgPrice) / MICROS_PER_UNIT / MICROS_PER_UNIT;
  }
  for (const o of ctx.openOrders()) {
    if (o.side !== 'BUY' || ctx.market(o.tokenId)?.conditionId !== conditionId) continue;
    total += ((o.size - o.filled) * o.price) / MICROS_PER_UNIT / MICROS_PER_UNIT;
  }
  return total;
}

function copyBuy(ctx: StrategyContext<P>, s: State, c: Pending): OrderIntent | undefined {
  const p = ctx.params;
  const market = ctx.market(c.tokenId);
  const trade = { wallet: c.wallet, txHash: c.txHash, tokenId: c.tokenId, side: c.side };
  if (market === undefined || !fresh(ctx, market)) return skipped(ctx, s, 'no fresh book', trade);
  const tick = market.rules.tickSize;
  const leaderPrice = Math.round((c.cost * MICROS_PER_UNIT) / c.size);
  const limit = Math.min(roundToTick(leaderPrice + toMicros(p.maxSlippage), tick, 'down'), MICROS_PER_UNIT - tick);
  const ask = market.bestAsk;
  if (ask === undefined || ask > limit) return skipped(ctx, s, `best ask ${ask === undefined ? 'none' : ask / MICROS_PER_UNIT} past the slippage cap ${limit / MICROS_PER_UNIT}`, trade);
  const room = Math.min(p.maxTradeUsdc, p.maxMarketUsdc - committed(ctx, market.conditionId));
  const byCap = room > 0 ? Math.floor((room * MICROS_PER_UNIT * MICROS_PER_UNIT) / limit) : 0;
  const scaled = Math.round(c.size * p.scale);
  const min = market.rules.minOrderSize;
  const wanted = scaled < min && p.raiseToMinimum ? min : scaled;
  const size = roundToLot(Math.min(wanted, byCap));
  if (size < min) {
    const why = scaled < min && !p.raiseToMinimum ? `the scaled size ${scaled / MICROS_PER_UNIT}` : `the caps' ${byCap / MICROS_PER_UNIT} shares`;
    return skipped(ctx, s, `${why} under the market's minimum ${min / MICROS_PER_UNIT}`, trade);
  }
  let leaders = s.copiedFrom.get(c.tokenId);
  if (leaders === undefined) s.copiedFrom.set(c.tokenId, (leaders = new Set()));
  leaders.add(c.wallet);
  s.counts.copies++;
  ctx.metric('copies', s.counts.copies);
  ctx.log.info('copy', { wallet: c.wallet, txHash: trade.txHash, tokenId: c.tokenId, leaderPrice: leaderPrice / MICROS_PER_UNIT, limit: limit / MICROS_PER_UNIT, size: size / MICROS_PER_UNIT, leaderTs: c.ts });
  return { kind: 'place', tokenId: c.tokenId, side: 'BUY', price: limit, size, orderType: 'FAK', ref: refOf('BUY', c.wallet, c.txHash), tag: c.key };
}

function copyExit(ctx: StrategyContext<P>, s: State, c: Pending): OrderIntent | undefined {
  const p = ctx.params;
  const market = ctx.market(c.tokenId);
  const trade = { wallet: c.wallet, txHash: c.txHash, tokenId: c.tokenId, side: c.side };
  const held = ctx.position(c.tokenId).size;
  if (market === undefined || held <= 0) return skipped(ctx, s, 'nothing to exit', trade);
  if (!fresh(ctx, market)) return skipped(ctx, s, 'no fresh book', trade);
  // the share of its position the leader sold (all, when it sold at least what it was seen to buy)
  const leaderLeft = s.leaderHeld.get(`${c.wallet}|${c.tokenId}`) ?? 0;
  const share = leaderLeft <= 0 ? 1 : c.size / (c.size + leaderLeft);
  const min = market.rules.minOrderSize;
  let size = share >= 1 ? roundToLot(held) : roundToLot(Math.round(held * share));
  // a part too small to send, or a rest too small to sell later: the whole position goes
  if (size < min || held - size < min) size = roundToLot(held);
  if (size < min) return skipped(ctx, s, `the position ${held / MICROS_PER_UNIT} is under the market's minimum ${min / MICROS_PER_UNIT}`, trade);
  if (size >= held) {
    s.copiedFrom.get(c.tokenId)?.delete(c.wallet);
    s.inherited.delete(c.tokenId);
  }
  const tick = market.rules.tickSize;
  const leaderPrice = Math.round((c.cost * MICROS_PER_UNIT) / c.size);
  const limit = Math.max(roundToTick(leaderPrice - toMicros(p.exitSlippage), tick, 'up'), tick);
  s.counts.exits++;
  ctx.metric('exits', s.counts.exits);
  ctx.log.info('exit', { wallet: c.wallet, txHash: trade.txHash, tokenId: c.tokenId, share, limit: limit / MICROS_PER_UNIT, size: size / MICROS_PER_UNIT });
  return { kind: 'place', tokenId: c.tokenId, side: 'SELL', price: limit, size: Math.min(size, held), orderType: 'FAK', ref: refOf('SELL', c.wallet, c.txHash), tag: c.key };
}

function skipped(ctx: StrategyContext<P>, s: State, why: string, trade: { wallet: string; txHash: string; tokenId: string; side: string }): undefined {
  s.counts.skipped++;
  ctx.metric('skipped', s.counts.skipped);
  ctx.log.info('leader trade not copied', { why, ...trade });
  return undefined;
}
