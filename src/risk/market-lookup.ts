import type { TokenId } from '../core/types.ts';
import type { RiskMarketView, RiskOpenOrder, RiskState } from './types.ts';

/**
 * The other token of a binary condition: the view's `complementTokenId` when set, else the
 * first other token of the same condition in `state.markets`, else undefined.
 */
export function complementTokenOf(view: RiskMarketView, state: RiskState): TokenId | undefined {
  if (view.complementTokenId !== undefined) return view.complementTokenId;
  for (const other of state.markets.values()) {
    if (other.conditionId === view.conditionId && other.tokenId !== view.tokenId) return other.tokenId;
  }
  return undefined;
}

/**
 * True when `order` rests on the complement of `tokenId`: on `complementId` if known, or on any
 * other token of the same condition (a condition has exactly two tokens; an empty condition
 * id matches nothing).
 */
export function isOnComplement(
  order: RiskOpenOrder,
  tokenId: TokenId,
  conditionId: string,
  complementId: TokenId | undefined,
): boolean {
  if (order.tokenId === tokenId) return false;
  return order.tokenId === complementId || (conditionId !== '' && order.conditionId === conditionId);
}
