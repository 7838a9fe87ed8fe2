import { formatMicros } from '../../core/fixed.ts';
import { byExpectedReward, rewardCompetition } from '../../core/reward-competition.ts';
import { getOrderBooks } from '../../venue/actions/get-order-books.ts';
import type { VenueClient } from '../../venue/client.ts';
import type { TradingMarket } from '../../venue/domain/trading.ts';
import { renderTable } from '../table.ts';

/**
 * One reward market as `clobot markets --rewards --json` prints it (docs/rewards.md, "Ranking
 * reward markets"): its rules, the qualifying depth inside the band, the competition's score, and
 * what a two-sided quote of `quoteUsdc` would take of it (prices and sizes as decimal text).
 */
export interface RewardMarketRow {
  readonly rank: number;
  readonly question: string;
  readonly slug: string;
  readonly conditionId: string;
  /** USDC a day paid to the market's makers. */
  readonly dailyRate: number;
  /** Shares. */
  readonly minSize: string;
  /** Cents from the adjusted midpoint. */
  readonly maxSpreadCents: number;
  readonly tick: string;
  /** The size-cutoff-adjusted midpoint (6 decimals), null with an empty side. */
  readonly midpoint: string | null;
  /** Shares inside the band in levels of at least min_size, per side. */
  readonly depthInBand: { readonly bid: string; readonly ask: string };
  /** The displayed book's score (Q_min, shares) as one maker: the competition. */
  readonly competitionScore: number;
  readonly quote: { readonly usdc: number; readonly bid: string; readonly ask: string; readonly size: string; readonly cost: string } | null;
  /** The least a two-sided quote at min_size costs at the quote's prices, USDC. */
  readonly minQuoteUsdc: string | null;
  /** The quote's share of each sample, 0 to 1 (6 decimals). */
  readonly expectedShare: number;
  /** The daily rate times that share: expected USDC a day for the quote. */
  readonly expectedDailyReward: string;
}

/**
 * The reward markets among `markets` (paying rewards, accepting orders, not closed), each scored
 * against its first outcome's book (`POST /books`), best first (expected USDC a day for the quote,
 * then the daily rate), numbered from 1.
 */
export async function rankRewardMarkets(client: VenueClient, markets: readonly TradingMarket[], quoteUsdc: number): Promise<RewardMarketRow[]> {
  const paying = markets.filter((m) => m.rewards !== undefined && m.acceptingOrders && !m.closed && m.tokens.length > 0);
  const books = paying.length > 0 ? await getOrderBooks(client, paying.map((m) => m.tokens[0]!.tokenId)) : [];
  const byToken = new Map(books.map((b) => [b.tokenId, b]));
  const scored = paying.map((m) => {
    const rules = m.rewards!;
    const book = byToken.get(m.tokens[0]!.tokenId) ?? { bids: [], asks: [] };
    return { market: m, conditionId: m.conditionId, dailyRate: rules.dailyRate, competition: rewardCompetition(rules, book, m.tickSize, quoteUsdc) };
  });
  scored.sort(byExpectedReward);
  return scored.map(({ market: m, competition: c }, i): RewardMarketRow => ({
    rank: i + 1,
    question: m.question,
    slug: m.marketSlug,
    conditionId: m.conditionId,
    dailyRate: m.rewards!.dailyRate,
    minSize: formatMicros(m.rewards!.minSize),
    maxSpreadCents: m.rewards!.maxSpreadCents,
    tick: formatMicros(m.tickSize),
    midpoint: c.mid === undefined ? null : (c.mid / 1_000_000).toFixed(6),
    depthInBand: { bid: formatMicros(c.depthInBand.bid), ask: formatMicros(c.depthInBand.ask) },
    competitionScore: Number(c.competition.toFixed(6)),
    quote: c.quote === undefined ? null : { usdc: quoteUsdc, bid: formatMicros(c.quote.bid), ask: formatMicros(c.quote.ask), size: formatMicros(c.quote.size), cost: c.quote.costUsdc.toFixed(6) },
    minQuoteUsdc: c.minCostUsdc === undefined ? null : c.minCostUsdc.toFixed(6),
    expectedShare: Number(c.share.toFixed(6)),
    expectedDailyReward: c.dailyReward.toFixed(6),
  }));
}

/** The table: one row per reward market, best first. */
export function formatRewardMarkets(rows: readonly RewardMarketRow[], quoteUsdc: number): string {
  const cells = rows.map((r) => [
    String(r.rank),
    clip(r.question, 40),
    String(r.dailyRate),
    r.minSize,
    String(r.maxSpreadCents),
    r.midpoint === null ? '-' : Number(r.midpoint).toFixed(4),
    `${r.depthInBand.bid} / ${r.depthInBand.ask}`,
    r.quote === null ? '-' : `${r.quote.bid} / ${r.quote.ask} x ${r.quote.size}`,
    r.minQuoteUsdc === null ? '-' : Number(r.minQuoteUsdc).toFixed(2),
    `${(r.expectedShare * 100).toFixed(2)}%`,
    r.expectedDailyReward,
  ]);
  const head = ['#', 'question', 'rate/day', 'min size', 'band c', 'midpoint', 'depth in band bid / ask', `quote (${quoteUsdc} USDC)`, 'min USDC', 'share', 'USDC/day'];
  const note = `expected share and USDC a day for a two-sided quote of ${quoteUsdc} USDC at the best prices inside the band, against the depth shown (docs/rewards.md)`;
  return renderTable(head, cells, [true, false, true, true, true, true, true, true, true, true, true]) + '\n' + note;
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : text.slice(0, width - 1) + '…';
}
