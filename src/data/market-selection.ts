import { ConfigError } from '../core/errors.ts';
import type { RewardRules } from '../core/rewards.ts';
import type { EventInfo, TokenId } from '../core/types.ts';
import type { VenueClient } from '../venue/client.ts';
import { getEventBySlug } from '../venue/actions/get-event-by-slug.ts';
import { getMarketBySlug } from '../venue/actions/get-market-by-slug.ts';
import { getOrderBook } from '../venue/actions/get-order-book.ts';
import { getTradingMarket } from '../venue/actions/get-trading-market.ts';
import { iterateMarkets } from '../venue/actions/iterate-markets.ts';
import type { TradingMarket } from '../venue/domain/trading.ts';
import type { TrackedToken } from './market-cache.ts';
import { eventsByMarket, trackedTokensOf } from './market-tokens.ts';

/** Which markets to trade or watch; the union of every entry. Never all empty. */
export interface MarketSelection {
  /** Outcome token ids, decimal strings. */
  readonly tokenIds: readonly string[];
  /** Condition ids, 0x + 64 lowercase hex. */
  readonly conditionIds: readonly `0x${string}`[];
  /** Market slugs. */
  readonly slugs: readonly string[];
  /** Event slugs: every market each event lists (absent: none). */
  readonly events?: readonly string[];
  readonly filter: MarketFilter | undefined;
}

/** Markets found by listing the venue's markets. */
export interface MarketFilter {
  /** Tag slugs; a market matches when it has any of them (empty = any tag). */
  readonly tags: readonly string[];
  readonly active: boolean;
  readonly acceptingOrders: boolean;
  /** Only markets that pay liquidity rewards (docs/rewards.md); default false. */
  readonly rewards?: boolean;
  /** At most this many markets. */
  readonly maxCount: number;
}

/**
 * Resolves a config's market selection (token ids, condition ids, slugs, a filter over the market
 * list) to trading markets and their tokens. The union of every entry, each market once.
 */
export async function resolveMarkets(client: VenueClient, selection: MarketSelection): Promise<TradingMarket[]> {
  const byCondition = new Map<string, TradingMarket>();
  const add = (market: TradingMarket) => {
    if (!byCondition.has(market.conditionId)) byCondition.set(market.conditionId, market);
  };
  for (const conditionId of selection.conditionIds) add(await getTradingMarket(client, conditionId));
  for (const slug of selection.slugs) {
    const meta = await getMarketBySlug(client, slug);
    add(await getTradingMarket(client, meta.conditionId));
  }
  for (const slug of selection.events ?? []) {
    const event = await getEventBySlug(client, slug);
    if (event.markets.length === 0) throw new ConfigError(`market selection: event '${slug}' lists no market`);
    for (const m of event.markets) if (!byCondition.has(m.conditionId)) add(await getTradingMarket(client, m.conditionId));
  }
  for (const tokenId of selection.tokenIds) {
    const book = await getOrderBook(client, tokenId);
    if (!byCondition.has(book.conditionId)) add(await getTradingMarket(client, book.conditionId));
  }
  const filter = selection.filter;
  if (filter) {
    let taken = 0;
    const tags = filterTags(filter);
    for await (const market of iterateMarkets(client)) {
      if (taken >= filter.maxCount) break;
      if (filterMismatch(market, filter, tags) !== undefined) continue;
      if (byCondition.has(market.conditionId)) continue;
      add(market);
      taken++;
    }
  }
  if (byCondition.size === 0) throw new ConfigError('market selection matched no market');
  return [...byCondition.values()];
}

/** Lowercase tag slugs of a filter (empty: any tag). */
export function filterTags(filter: MarketFilter): ReadonlySet<string> {
  return new Set(filter.tags.map((t) => t.toLowerCase()));
}

/**
 * Why a listed market does not match a filter (`tags`: `filterTags(filter)`), or undefined when
 * it does. One rule for the selection at start and its re-evaluation while a run goes on.
 */
export function filterMismatch(market: TradingMarket, filter: MarketFilter, tags: ReadonlySet<string>): string | undefined {
  if (filter.active && market.closed) return 'closed';
  if (filter.active && !market.active) return 'not active';
  if (filter.acceptingOrders && !market.acceptingOrders) return 'not accepting orders';
  if (!market.enableOrderBook) return 'order book disabled';
  if (filter.rewards === true && market.rewards === undefined) return 'pays no liquidity rewards';
  if (tags.size > 0 && !market.tags.some((t) => tags.has(t.toLowerCase()))) return 'tags';
  return undefined;
}

/** True when a selection names the market itself (condition id, slug or one of its tokens), not only its filter. */
export function namedBySelection(market: TradingMarket, selection: MarketSelection): boolean {
  const cid = market.conditionId.toLowerCase();
  if (selection.conditionIds.some((c) => c.toLowerCase() === cid)) return true;
  if (selection.slugs.includes(market.marketSlug) || (market.slug !== undefined && selection.slugs.includes(market.slug))) return true;
  if (market.event !== undefined && (selection.events ?? []).includes(market.event.slug)) return true;
  return market.tokens.some((t) => selection.tokenIds.includes(t.tokenId));
}

/**
 * The tracked tokens of trading markets (`trackedTokensOf`: binary markets, the first two tokens),
 * each with its matching delay and its event (the one of `events` listing its market).
 */
export function tokensOf(markets: readonly TradingMarket[], only?: ReadonlySet<TokenId>, events: readonly EventInfo[] = []): TrackedToken[] {
  const keep = only && only.size > 0 ? (tokenId: TokenId) => only.has(tokenId) : undefined;
  const eventOf = eventsByMarket(events);
  return markets.flatMap((market) =>
    trackedTokensOf(
      market,
      {
        conditionId: market.conditionId,
        tickSize: market.tickSize,
        minOrderSize: market.minOrderSize,
        negRisk: market.negRisk,
        makerBaseFeeBps: market.makerBaseFeeBps,
        takerBaseFeeBps: market.takerBaseFeeBps,
        acceptingOrders: market.acceptingOrders,
        rewards: rewardRulesOfMarket(market),
        ...(market.secondsDelay > 0 ? { secondsDelay: market.secondsDelay } : {}),
        ...(market.gameStartTime !== undefined ? { gameStartTime: market.gameStartTime } : {}),
        ...(market.endDate !== undefined ? { endDate: market.endDate } : {}),
      },
      keep,
      eventOf.get(market.conditionId.toLowerCase()),
    ),
  );
}

/** A market's reward rules alone (the scoring model's fields, not the per-asset rates); undefined when it pays none. */
export function rewardRulesOfMarket(market: Pick<TradingMarket, 'rewards'>): RewardRules | undefined {
  const r = market.rewards;
  return r === undefined ? undefined : { dailyRate: r.dailyRate, minSize: r.minSize, maxSpreadCents: r.maxSpreadCents };
}
