import { deny, unknownMarket } from '../deny.ts';
import type { RiskCheck } from '../types.ts';

/**
 * staleBook -> STALE_BOOK when the order's token has no book yet, or its newest book is older
 * than `staleBookMs` (`now - bookTsInit > staleBookMs`; exactly at the limit is fresh).
 * No limit -> passes. UNKNOWN_MARKET when the token is not in `state.markets`.
 */
export const staleBook: RiskCheck = (req, state, limits) => {
  const maxAgeMs = limits.staleBookMs;
  if (maxAgeMs === undefined) return undefined;
  const view = state.markets.get(req.tokenId);
  if (view === undefined) return unknownMarket('staleBook', req.tokenId);
  if (view.bookTsInit === undefined) return deny('STALE_BOOK', 'staleBook', `no book for token ${req.tokenId}`);
  const ageMs = state.now - view.bookTsInit;
  if (!(ageMs <= maxAgeMs)) {
    return deny('STALE_BOOK', 'staleBook', `book age ${ageMs} ms exceeds max ${maxAgeMs} ms`);
  }
  return undefined;
};
