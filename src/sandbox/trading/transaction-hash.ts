import { createHash } from 'node:crypto';

/** A deterministic stand-in for the on-chain transaction of a trade: 0x + 64 hex. */
export function transactionHashOf(tradeId: string): string {
  return '0x' + createHash('sha256').update(`clobot-sandbox-tx:${tradeId}`).digest('hex');
}
