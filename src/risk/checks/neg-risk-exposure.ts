import type { TokenId } from '../../core/types.ts';
import { deny, unknownMarket } from '../deny.ts';
import { addedPicos, addOpenBuy, addPosition } from '../exposure.ts';
import { formatPicos, microsToPicos, PicoSum } from '../money.ts';
import type { RiskCheck } from '../types.ts';

/**
 * negRiskExposure -> NEG_RISK_EXPOSURE_LIMIT for an order on a neg-risk market (its view has a
 * `negRiskMarketId`) when, over every token in `state.markets` of the same event,
 *   Σ |position| × mark + Σ price × remaining of open BUYs + this order's added notional
 * is above `maxNegRiskEventExposure` (exactly at it is allowed). Marks and the SELL rule are
 * those of maxGrossExposure. Orders on markets outside any event pass. No limit -> passes.
 * UNKNOWN_MARKET when the token is not in `state.markets` (its event cannot be known).
 */
export const negRiskExposure: RiskCheck = (req, state, limits) => {
  const max = limits.maxNegRiskEventExposure;
  if (max === undefined) return undefined;
  const view = state.markets.get(req.tokenId);
  if (view === undefined) return unknownMarket('negRiskExposure', req.tokenId);
  const eventId = view.negRiskMarketId;
  if (eventId === undefined) return undefined;
  const tokens = new Set<TokenId>();
  for (const m of state.markets.values()) if (m.negRiskMarketId === eventId) tokens.add(m.tokenId);
  const sum = new PicoSum();
  sum.addPicos(addedPicos(req, state));
  for (const tokenId of tokens) {
    const position = state.positions.get(tokenId);
    if (position !== undefined) addPosition(sum, tokenId, position, req, state);
  }
  for (const o of state.openOrders) if (tokens.has(o.tokenId)) addOpenBuy(sum, o);
  const total = sum.value;
  const limit = microsToPicos(max, 'maxNegRiskEventExposure');
  if (total > limit) {
    return deny(
      'NEG_RISK_EXPOSURE_LIMIT',
      'negRiskExposure',
      `neg-risk event ${eventId} exposure ${formatPicos(total)} exceeds max ${formatPicos(limit)}`,
    );
  }
  return undefined;
};
