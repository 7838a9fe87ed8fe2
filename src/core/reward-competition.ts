import type { Micros } from './fixed.ts';
import { adjustedMidpoint, estimateShare, type RewardBook, type RewardRules } from './rewards.ts';

/**
 * How crowded a reward market's band is, from its displayed book (docs/rewards.md, "Ranking
 * reward markets"): the qualifying depth already inside the band, and the share a hypothetical
 * two-sided quote costing `quoteUsdc` would take of each sample against it, with the one scoring
 * model (the displayed book as one other maker, as the engine estimates a paper run). The
 * hypothetical quote joins each side's best price when it is inside the band, else sits at the
 * tick nearest the midpoint on that side (never crossing the other side's best); both sides are
 * bids that need no inventory (the ask side a bid for the complement at 1 - ask), the same size,
 * so it costs `size * (bid + 1 - ask)`. Under `minSize` it scores nothing.
 */
export interface RewardCompetition {
  /** The size-cutoff-adjusted midpoint of the displayed book, Micros (may be half a micro); undefined with an empty side. */
  readonly mid: number | undefined;
  /** Displayed size inside the band in levels of at least `minSize` (each level counted as one order), per side, Micros. */
  readonly depthInBand: { readonly bid: Micros; readonly ask: Micros };
  /** The displayed book's score (Q_min) as one maker at the midpoint: the competition. */
  readonly competition: number;
  /** The hypothetical quote: its prices (YES terms), size a side and cost; undefined when a side has no price inside the band. */
  readonly quote: { readonly bid: Micros; readonly ask: Micros; readonly size: Micros; readonly costUsdc: number } | undefined;
  /** USDC a two-sided quote at `minSize` at the quote's prices costs: the least that scores. */
  readonly minCostUsdc: number | undefined;
  /** The quote's share of a sample, 0 to 1. */
  readonly share: number;
  /** What that share earns a day at the market's rate, USDC. */
  readonly dailyReward: number;
}

const ONE = 1_000_000;
/** The hypothetical quote's size is rounded down to a hundredth of a share. */
const SIZE_STEP = 10_000;

export function rewardCompetition(rules: RewardRules, book: RewardBook, tick: Micros, quoteUsdc: number): RewardCompetition {
  const band = rules.maxSpreadCents * 10_000;
  const mid = adjustedMidpoint(book, rules.minSize);
  const depthInBand = { bid: 0, ask: 0 };
  if (mid === undefined) return { mid, depthInBand, competition: 0, quote: undefined, minCostUsdc: undefined, share: 0, dailyReward: 0 };
  for (const l of book.bids) if (l.size >= rules.minSize && Math.abs(l.price - mid) < band) depthInBand.bid += l.size;
  for (const l of book.asks) if (l.size >= rules.minSize && Math.abs(l.price - mid) < band) depthInBand.ask += l.size;
  const competition = estimateShare(rules, book, [], false).others;
  const prices = quotePrices(book, mid, band, tick);
  if (prices === undefined) return { mid, depthInBand, competition, quote: undefined, minCostUsdc: undefined, share: 0, dailyReward: 0 };
  const perShare = prices.bid + ONE - prices.ask;
  const size = Math.floor((quoteUsdc * ONE * ONE) / perShare / SIZE_STEP) * SIZE_STEP;
  const quote = { ...prices, size, costUsdc: (size * perShare) / (ONE * ONE) };
  const minCostUsdc = (rules.minSize * perShare) / (ONE * ONE);
  const ours = [
    { side: 'BUY' as const, price: prices.bid, size },
    { side: 'SELL' as const, price: prices.ask, size },
  ];
  const share = size > 0 ? estimateShare(rules, book, ours, false).share : 0;
  return { mid, depthInBand, competition, quote, minCostUsdc, share, dailyReward: rules.dailyRate * share };
}

/** Each side's best price when inside the band, else the tick nearest the midpoint on its side; undefined when one is outside the band. */
function quotePrices(book: RewardBook, mid: number, band: number, tick: Micros): { bid: Micros; ask: Micros } | undefined {
  const bestBid = book.bids[0]?.price;
  const bestAsk = book.asks[0]?.price;
  const inBand = (p: number) => Math.abs(p - mid) < band && p > 0 && p < ONE;
  let bid = bestBid !== undefined && inBand(bestBid) ? bestBid : Math.ceil(mid / tick) * tick - tick;
  let ask = bestAsk !== undefined && inBand(bestAsk) ? bestAsk : Math.floor(mid / tick) * tick + tick;
  if (bestAsk !== undefined && bid >= bestAsk) bid = bestAsk - tick;
  if (bestBid !== undefined && ask <= bestBid) ask = bestBid + tick;
  return inBand(bid) && inBand(ask) && bid < ask ? { bid, ask } : undefined;
}

/** Reward markets best first: expected USDC a day for the quote, then the daily rate, then the id. */
export function byExpectedReward<T extends { readonly conditionId: string; readonly dailyRate: number; readonly competition: Pick<RewardCompetition, 'dailyReward'> }>(a: T, b: T): number {
  return b.competition.dailyReward - a.competition.dailyReward || b.dailyRate - a.dailyRate || (a.conditionId < b.conditionId ? -1 : a.conditionId > b.conditionId ? 1 : 0);
}
