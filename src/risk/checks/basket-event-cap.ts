import type { OrderRequest } from '../../core/intents.ts';
import type { TokenId } from '../../core/types.ts';
import { deny } from '../deny.ts';
import { addedPicos, addOpenBuy, addPosition } from '../exposure.ts';
import { formatPicos, microsToPicos, PicoSum } from '../money.ts';
import type { Denial, RiskLimits, RiskState } from '../types.ts';

/**
 * The basket's joint check of neg-risk event exposure (part of `negRiskExposure`, which checks
 * one order): for each event a leg of the basket trades in, with EVERY leg filled (the worst
 * case),
 *   Σ |position| × mark + Σ price × remaining of open BUYs + Σ each leg's added notional
 * over the event's tokens must be at most `maxNegRiskEventExposure`; else the whole basket is
 * denied with BASKET_EVENT_CAP (no leg is sent). Marks and the SELL rule are maxGrossExposure's.
 * Legs outside any event, or no limit: passes. Legs on unknown tokens are left to the per-leg
 * checks (UNKNOWN_MARKET).
 */
export function basketEventCap(legs: readonly OrderRequest[], state: RiskState, limits: RiskLimits): Denial | undefined {
  const max = limits.maxNegRiskEventExposure;
  if (max === undefined) return undefined;
  const byEvent = new Map<string, OrderRequest[]>();
  for (const leg of legs) {
    const eventId = state.markets.get(leg.tokenId)?.negRiskMarketId;
    if (eventId === undefined) continue;
    const list = byEvent.get(eventId);
    if (list) list.push(leg);
    else byEvent.set(eventId, [leg]);
  }
  const limit = microsToPicos(max, 'maxNegRiskEventExposure');
  for (const [eventId, eventLegs] of byEvent) {
    const tokens = new Set<TokenId>();
    for (const m of state.markets.values()) if (m.negRiskMarketId === eventId) tokens.add(m.tokenId);
    const sum = new PicoSum();
    for (const leg of eventLegs) sum.addPicos(addedPicos(leg, state));
    const first = eventLegs[0]!;
    for (const tokenId of tokens) {
      const position = state.positions.get(tokenId);
      if (position !== undefined) addPosition(sum, tokenId, position, eventLegs.find((l) => l.tokenId === tokenId) ?? first, state);
    }
    for (const o of state.openOrders) if (tokens.has(o.tokenId)) addOpenBuy(sum, o);
    const total = sum.value;
    if (total > limit) {
      return deny(
        'BASKET_EVENT_CAP',
        'negRiskExposure',
        `basket of ${legs.length} legs: neg-risk event ${eventId} exposure ${formatPicos(total)} with every leg filled exceeds max ${formatPicos(limit)}`,
      );
    }
  }
  return undefined;
}
