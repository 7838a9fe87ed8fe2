import type { Micros } from './fixed.ts';

/**
 * The venue's liquidity-rewards scoring model as pure functions (docs/rewards.md says what was
 * taken from where and every assumption). Each sample, every resting order of a maker that is at
 * least `minSize` and within `maxSpreadCents` of the size-cutoff-adjusted midpoint scores
 * S = ((v - s) / v)^2 * size; a maker's scores are summed per side of the one book (a YES bid and
 * a NO ask are the same side); the maker's score is the weaker side (`qMin`); its share is its
 * score over all makers' scores; each sample pays `dailyRate * share * sampleMs / DAY_MS`.
 *
 * Prices and sizes are Micros; a midpoint may fall on half a micro, so it is a plain number of
 * micros. Scores are in shares (a float), rewards in USDC (a float): both are summed in a fixed
 * order, so the same inputs give the same figures on every run.
 */

/** A market's reward rules, as strategies see them on `MarketSnapshot.rules.rewards`. */
export interface RewardRules {
  /** USDC paid to the market's makers per day. */
  readonly dailyRate: number;
  /** An order smaller than this (shares, as Micros) scores nothing. */
  readonly minSize: Micros;
  /** An order this far or farther from the adjusted midpoint scores nothing, cents. */
  readonly maxSpreadCents: number;
}

/** c: a one-sided maker keeps a third of its side's score while the midpoint is in the two-sided band. */
export const REWARD_SCALING_FACTOR = 3;
/** The midpoint band (inclusive, Micros) inside which one-sided quoting still scores. */
export const ONE_SIDED_LOW: Micros = 100_000;
export const ONE_SIDED_HIGH: Micros = 900_000;
/** The venue samples once a minute. */
export const REWARD_SAMPLE_MS = 60_000;
export const DAY_MS = 86_400_000;

const MICROS_PER_CENT = 10_000;
const MICROS_PER_SHARE = 1_000_000;

/** A side of the book (types.ts imports this file, so it does not import types.ts back). */
type Side = 'BUY' | 'SELL';
/** A price level: the shape of `BookLevel`. */
interface BookLevel {
  readonly price: Micros;
  readonly size: Micros;
}

/** A resting order as the scorer sees it: in the terms of the market's first outcome (YES). */
export interface RewardQuote {
  readonly side: Side;
  readonly price: Micros;
  /** Open (unfilled) size. */
  readonly size: Micros;
}

/** Both sides of one sample's book in YES terms (bids descending, asks ascending). */
export interface RewardBook {
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
}

/**
 * An order in YES terms: an order on the second outcome (NO) at p is the opposite side of the
 * YES book at 1 - p (a NO ask is a YES bid).
 */
export function quoteInYesTerms(outcomeIndex: 0 | 1, side: Side, price: Micros, size: Micros): RewardQuote {
  if (outcomeIndex === 0) return { side, price, size };
  return { side: side === 'BUY' ? 'SELL' : 'BUY', price: MICROS_PER_SHARE - price, size };
}

/** A book of the second outcome turned into YES terms (its asks become bids at 1 - p, and so on). */
export function bookInYesTerms(outcomeIndex: 0 | 1, book: RewardBook): RewardBook {
  if (outcomeIndex === 0) return book;
  const flip = (l: BookLevel): BookLevel => ({ price: MICROS_PER_SHARE - l.price, size: l.size });
  return { bids: book.asks.map(flip), asks: book.bids.map(flip) };
}

/**
 * The price a side reaches once `minSize` has been counted from its best level: the best price
 * when the best level alone holds `minSize`, a worse one when small orders sit in front. A side
 * too thin to hold `minSize` gives its last level; an empty side gives undefined.
 */
export function cutoffPrice(levels: readonly BookLevel[], minSize: Micros): Micros | undefined {
  let depth = 0;
  for (const l of levels) {
    depth += l.size;
    if (depth >= minSize) return l.price;
  }
  return levels.length > 0 ? levels[levels.length - 1]!.price : undefined;
}

/**
 * The size-cutoff-adjusted midpoint (Micros, may be half a micro): the mean of both sides' cutoff
 * prices, so dust in front of the book does not move it. Undefined when a side is empty.
 */
export function adjustedMidpoint(book: RewardBook, minSize: Micros): number | undefined {
  const bid = cutoffPrice(book.bids, minSize);
  const ask = cutoffPrice(book.asks, minSize);
  if (bid === undefined || ask === undefined) return undefined;
  return (bid + ask) / 2;
}

/** The score of one order: ((v - s) / v)^2 * size in shares; 0 below `minSize` or at `v` cents or farther. */
export function orderScore(rules: RewardRules, mid: number, quote: RewardQuote): number {
  if (quote.size < rules.minSize || quote.size <= 0) return 0;
  const v = rules.maxSpreadCents;
  if (!(v > 0)) return 0;
  const s = Math.abs(quote.price - mid) / MICROS_PER_CENT;
  if (s >= v) return 0;
  const f = (v - s) / v;
  return f * f * (quote.size / MICROS_PER_SHARE);
}

/** One maker's side scores for a sample: `bid` sums its YES bids (and NO asks), `ask` its YES asks (and NO bids). */
export interface SideScores {
  readonly bid: number;
  readonly ask: number;
}

export function sideScores(rules: RewardRules, mid: number, quotes: readonly RewardQuote[]): SideScores {
  let bid = 0;
  let ask = 0;
  for (const q of quotes) {
    const s = orderScore(rules, mid, q);
    if (q.side === 'BUY') bid += s;
    else ask += s;
  }
  return { bid, ask };
}

/** True while the midpoint is in [0.10, 0.90], where one-sided quoting keeps a third of its score. */
export function oneSidedScores(mid: number): boolean {
  return mid >= ONE_SIDED_LOW && mid <= ONE_SIDED_HIGH;
}

/** Q_min: max(min(Q1, Q2), max(Q1, Q2) / c) inside [0.10, 0.90], min(Q1, Q2) outside. */
export function qMin(sides: SideScores, mid: number): number {
  const lo = Math.min(sides.bid, sides.ask);
  if (!oneSidedScores(mid)) return lo;
  return Math.max(lo, Math.max(sides.bid, sides.ask) / REWARD_SCALING_FACTOR);
}

/** One maker's score for a sample. */
export function makerScore(rules: RewardRules, mid: number, quotes: readonly RewardQuote[]): number {
  return qMin(sideScores(rules, mid, quotes), mid);
}

/** One sample of one market: the midpoint, each maker's score and share, and the total. */
export interface RewardSample {
  /** Undefined when a side of the book was empty: nobody scores. */
  readonly mid: number | undefined;
  readonly total: number;
  readonly scores: ReadonlyMap<string, number>;
}

/**
 * Samples one market: the adjusted midpoint of `book` (all makers' orders, YES terms) and the
 * score of every maker in `makers` (their open orders, YES terms), in the map's order.
 */
export function sampleMarket(rules: RewardRules, book: RewardBook, makers: ReadonlyMap<string, readonly RewardQuote[]>): RewardSample {
  const mid = adjustedMidpoint(book, rules.minSize);
  const scores = new Map<string, number>();
  let total = 0;
  if (mid !== undefined) {
    for (const [maker, quotes] of makers) {
      const q = makerScore(rules, mid, quotes);
      if (q > 0) {
        scores.set(maker, q);
        total += q;
      }
    }
  }
  return { mid, total, scores };
}

/** A maker's share of a sample, 0 to 1. */
export function shareOf(sample: RewardSample, maker: string): number {
  const q = sample.scores.get(maker) ?? 0;
  return q > 0 && sample.total > 0 ? q / sample.total : 0;
}

/** What one sample pays a share of the market: the daily rate times the share, for the sample's part of the day. */
export function sampleReward(rules: RewardRules, share: number, sampleMs: number): number {
  return (rules.dailyRate * share * sampleMs) / DAY_MS;
}

/** The book's levels as the orders of one maker (each level one order), YES terms. */
export function levelQuotes(book: RewardBook): RewardQuote[] {
  const out: RewardQuote[] = [];
  for (const l of book.bids) out.push({ side: 'BUY', price: l.price, size: l.size });
  for (const l of book.asks) out.push({ side: 'SELL', price: l.price, size: l.size });
  return out;
}

/** `book` without `ours`: each of our orders' size taken off its level (a level never below 0). */
export function bookWithout(book: RewardBook, ours: readonly RewardQuote[]): RewardBook {
  if (ours.length === 0) return book;
  const less = (levels: readonly BookLevel[], side: Side): BookLevel[] => {
    const out: BookLevel[] = [];
    for (const l of levels) {
      let size = l.size;
      for (const q of ours) if (q.side === side && q.price === l.price) size -= q.size;
      if (size > 0) out.push(size === l.size ? l : { price: l.price, size });
    }
    return out;
  };
  return { bids: less(book.bids, 'BUY'), asks: less(book.asks, 'SELL') };
}

/**
 * `orders` without `ours`: each of our orders removes the inferred order of exactly its size on
 * its side and price (the newest such), else its size taken off that level's newest orders.
 */
export function withoutOurs(orders: readonly RewardQuote[], ours: readonly RewardQuote[]): RewardQuote[] {
  if (ours.length === 0) return orders.slice();
  const out: RewardQuote[] = orders.slice();
  for (const q of ours) {
    let exact = -1;
    for (let i = out.length - 1; i >= 0; i--) {
      const o = out[i]!;
      if (o.side === q.side && o.price === q.price && o.size === q.size) {
        exact = i;
        break;
      }
    }
    if (exact >= 0) {
      out.splice(exact, 1);
      continue;
    }
    let left = q.size;
    for (let i = out.length - 1; i >= 0 && left > 0; i--) {
      const o = out[i]!;
      if (o.side !== q.side || o.price !== q.price) continue;
      if (o.size > left) {
        out[i] = { side: o.side, price: o.price, size: o.size - left };
        left = 0;
      } else {
        left -= o.size;
        out.splice(i, 1);
      }
    }
  }
  return out;
}

/** Our estimated sample: our score and the competition's, from the displayed book alone. */
export interface RewardEstimate {
  readonly mid: number | undefined;
  readonly ours: number;
  readonly others: number;
  readonly share: number;
}

/**
 * Our share from what a client can see: the displayed book (YES terms) and our own open orders.
 * Without `competition`, each displayed level counts as one order, and everyone else counts as ONE maker (the book does
 * not say whose orders a level holds). With several two-sided makers that over-states their
 * score (the minimum of sums is at least the sum of minimums), so the estimate errs low.
 * `bookHasOurs`: the book shows our orders too (live; a simulated book never does), and the
 * midpoint is taken from it as the venue takes it.
 * `competition`: the other orders as inferred level by level (src/data/level-composition.ts),
 * YES terms, in place of "each level one order"; live they include ours, which are taken out
 * (`withoutOurs`). Each still scores only at `minSize` and inside the band, and all of them
 * count as ONE other maker (docs/rewards.md "The model").
 */
export function estimateShare(rules: RewardRules, book: RewardBook, ours: readonly RewardQuote[], bookHasOurs: boolean, competition?: readonly RewardQuote[]): RewardEstimate {
  const full = bookHasOurs ? book : withQuotes(book, ours);
  const mid = adjustedMidpoint(full, rules.minSize);
  if (mid === undefined) return { mid, ours: 0, others: 0, share: 0 };
  const otherQuotes =
    competition !== undefined ? (bookHasOurs ? withoutOurs(competition, ours) : competition) : levelQuotes(bookHasOurs ? bookWithout(book, ours) : book);
  const others = makerScore(rules, mid, otherQuotes);
  const mine = makerScore(rules, mid, ours);
  const total = mine + others;
  return { mid, ours: mine, others, share: mine > 0 && total > 0 ? mine / total : 0 };
}

/** `book` with `quotes` added at their prices (levels kept in book order). */
export function withQuotes(book: RewardBook, quotes: readonly RewardQuote[]): RewardBook {
  if (quotes.length === 0) return book;
  const add = (levels: readonly BookLevel[], side: Side, better: (a: Micros, b: Micros) => boolean): BookLevel[] => {
    const byPrice = new Map<Micros, Micros>();
    for (const l of levels) byPrice.set(l.price, (byPrice.get(l.price) ?? 0) + l.size);
    for (const q of quotes) if (q.side === side && q.size > 0) byPrice.set(q.price, (byPrice.get(q.price) ?? 0) + q.size);
    return [...byPrice].map(([price, size]) => ({ price, size })).sort((a, b) => (better(a.price, b.price) ? -1 : 1));
  };
  return { bids: add(book.bids, 'BUY', (a, b) => a > b), asks: add(book.asks, 'SELL', (a, b) => a < b) };
}

/** The wire's reward fields (shares, cents, per-asset daily rates) as `RewardRules`; undefined when the market pays none. */
export function rewardRulesOf(wire: { readonly rates: readonly { readonly rewardsDailyRate: number }[]; readonly minSize: number; readonly maxSpread: number }): RewardRules | undefined {
  if (wire.rates.length === 0) return undefined;
  let dailyRate = 0;
  for (const r of wire.rates) dailyRate += r.rewardsDailyRate;
  return { dailyRate, minSize: Math.round(wire.minSize * MICROS_PER_SHARE), maxSpreadCents: wire.maxSpread };
}
