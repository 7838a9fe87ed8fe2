import { createHash } from 'node:crypto';
import type { Trade } from '../../sim/types.ts';

/**
 * A deterministic stand-in for the on-chain transaction of a trade: 0x + 64 hex. One taker
 * order's match settles in one transaction, as on the venue: a taker sweeping three price levels
 * makes three trades (one per level) and one transaction hash, so a wallet's analytics show
 * several fills of one transaction.
 */
export function transactionHashOf(trade: Pick<Trade, 'takerOrderId'>): string {
  return '0x' + createHash('sha256').update(`clobot-sandbox-tx:${trade.takerOrderId}`).digest('hex');
}
