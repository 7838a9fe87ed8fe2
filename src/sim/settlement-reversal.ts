import type { Micros } from '../core/fixed.ts';
import { notional } from '../core/money.ts';
import type { Side, TokenId } from '../core/types.ts';
import type { Account, Ledger } from './ledger.ts';
import type { Trade } from './types.ts';

/**
 * What a trade that FAILED on chain (settlement-model.ts) undoes, for both simulated venues.
 * The orders keep their matched size (the venue matched them; the chain refused the trade). A
 * party that sold or merged the tokens since may end below zero in that token: that is what its
 * account holds once the trade is void.
 */

/** Undoes one party's side of a fill: a buyer gets its notional and fee back and gives the tokens back; a seller the reverse. */
export function undoFill(account: Account, tokenId: TokenId, side: Side, price: Micros, size: Micros, fee: Micros): void {
  const holding = account.holding(tokenId);
  const value = notional(price, size);
  if (side === 'BUY') {
    account.collateral += value + fee;
    holding.free -= size;
  } else {
    account.collateral -= value - fee;
    holding.free += size;
  }
}

/**
 * Undoes a whole trade on the matching engine's ledger: every maker and the taker, the fees
 * collected, and the complete sets a MINT created or a MERGE destroyed. The ledger's conservation
 * law holds after it as before it.
 */
export function reverseTrade(ledger: Ledger, trade: Trade): void {
  let fees = trade.fee;
  let setsDelta = 0;
  for (const m of trade.makerOrders) {
    undoFill(ledger.account(m.address), m.tokenId, m.side, m.price, m.matchedAmount, m.fee);
    if (m.settlement === 'MINT') setsDelta -= m.matchedAmount;
    else if (m.settlement === 'MERGE') setsDelta += m.matchedAmount;
    fees += m.fee;
  }
  undoFill(ledger.account(trade.address), trade.tokenId, trade.side, trade.price, trade.size, trade.fee);
  ledger.feesCollected -= fees;
  if (setsDelta !== 0) ledger.adjustCompleteSets(trade.conditionId, setsDelta);
}
