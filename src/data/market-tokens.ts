import type { EventInfo, MarketRules, TokenId } from '../core/types.ts';
import type { TrackedToken } from './market-cache.ts';

/**
 * How a market becomes the tokens the engine tracks, in one place: a live market from the venue
 * and a recorded one both go through `trackedTokensOf`.
 *
 * The engine trades binary markets: a token's `outcomeIndex` is 0 or 1 and its complement is the
 * other outcome (the pair that merges into one unit of collateral). A market listing more than
 * two tokens is taken by its first two, as the venue orders them; `outcomeTokens` is that rule.
 */

/** What the rule reads of a market, live or recorded. */
export interface MarketOfTokens {
  readonly conditionId: string;
  readonly question: string;
  readonly negRisk: boolean;
  readonly negRiskMarketId?: string | undefined;
  readonly tokens: readonly { readonly tokenId: TokenId; readonly outcome: string }[];
}

/** The number of outcomes a market has for the engine (see the module's comment). */
export const BINARY_OUTCOMES = 2;

/** The tokens of a market the engine takes, in outcome order: the first two. */
export function outcomeTokens<T>(tokens: readonly T[]): readonly T[] {
  return tokens.length > BINARY_OUTCOMES ? tokens.slice(0, BINARY_OUTCOMES) : tokens;
}

/**
 * The tracked tokens of one market with its trading rules (each token holds its own copy, as the
 * market cache replaces a token's rules alone on a tick-size change) and its event when known;
 * with `keep`, only the tokens it accepts (each still names its complement).
 */
export function trackedTokensOf(market: MarketOfTokens, rules: MarketRules, keep?: (tokenId: TokenId) => boolean, event?: EventInfo): TrackedToken[] {
  const [a, b] = outcomeTokens(market.tokens);
  const out: TrackedToken[] = [];
  outcomeTokens(market.tokens).forEach((token, index) => {
    if (keep !== undefined && !keep(token.tokenId)) return;
    out.push({
      tokenId: token.tokenId,
      conditionId: market.conditionId,
      outcome: token.outcome,
      outcomeIndex: index as 0 | 1,
      complementTokenId: index === 0 ? b?.tokenId : a?.tokenId,
      question: market.question,
      negRiskMarketId: market.negRisk && market.negRiskMarketId ? market.negRiskMarketId : undefined,
      rules: { ...rules },
      ...(event !== undefined ? { event } : {}),
    });
  });
  return out;
}

/** Each market's event by condition id: the event listing it among its markets (the first that does). */
export function eventsByMarket(events: readonly EventInfo[]): Map<string, EventInfo> {
  const out = new Map<string, EventInfo>();
  for (const e of events) for (const c of e.marketConditionIds) if (!out.has(c.toLowerCase())) out.set(c.toLowerCase(), e);
  return out;
}
