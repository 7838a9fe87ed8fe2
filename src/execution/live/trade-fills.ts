import type { Side } from '../../core/types.ts';
import { FeeRate } from '../../core/money.ts';
import type { AccountTrade } from '../../venue/domain/account.ts';
import { sameAddress } from '../../venue/signing/address.ts';
import type { VenueFill } from '../execution-client.ts';

/** Whose fills to pick out of the account's trades. */
export interface FillOwner {
  /** Our API key: the `owner` of our orders. */
  readonly apiKey: string;
  /** Our funder address (the orders' `maker`): used when a maker entry carries no owner. */
  readonly makerAddress: string;
}

/**
 * The fills of OUR orders in one account trade, each from our side:
 * - as taker: the taker order id, the trade's side, price and size;
 * - as maker: every maker entry that is ours, with its order id, matched amount, price and side
 *   (the opposite of the taker's side when the entry names none).
 * A self-cross gives both. Fees use the venue's formula (rate × min(p, 1 - p) × size, rounded
 * down), with the taker's rate for the taker fill and each entry's rate for a maker fill.
 *
 * Who is the taker: `type`/`trader_side` says which role the account had (`MAKER` means not the
 * taker) and the trade's `owner`, when sent, must be our key. With neither, the taker is us
 * exactly when no maker entry is ours (the trade is in our account's list, so one side is us).
 */
export function fillsOfTrade(trade: AccountTrade, owner: FillOwner, tsInit: number): VenueFill[] {
  const out: VenueFill[] = [];
  const tsEvent = trade.matchTime ?? trade.lastUpdate ?? tsInit;
  let ourMaker = false;
  for (const mo of trade.makerOrders) {
    const mine = mo.owner !== undefined && mo.owner !== '' ? mo.owner === owner.apiKey : mo.makerAddress !== undefined && sameAddress(mo.makerAddress, owner.makerAddress);
    if (!mine) continue;
    ourMaker = true;
    const side: Side = mo.side ?? (trade.side === 'BUY' ? 'SELL' : 'BUY');
    out.push({
      tradeId: trade.id,
      orderId: mo.orderId,
      tokenId: mo.assetId,
      side,
      price: mo.price,
      size: mo.matchedAmount,
      fee: feeOf(mo.feeRateBps, mo.price, mo.matchedAmount),
      liquidity: 'MAKER',
      status: trade.status,
      tsEvent,
      tsInit,
    });
  }
  const role = trade.traderSide?.toUpperCase();
  const ownerKnown = trade.owner !== undefined && trade.owner !== '';
  const takerIsUs =
    trade.takerOrderId !== undefined &&
    trade.takerOrderId !== '' &&
    (role !== undefined || ownerKnown ? role !== 'MAKER' && (!ownerKnown || trade.owner === owner.apiKey) : !ourMaker);
  if (takerIsUs) {
    out.unshift({
      tradeId: trade.id,
      orderId: trade.takerOrderId,
      tokenId: trade.assetId,
      side: trade.side,
      price: trade.price,
      size: trade.size,
      fee: feeOf(trade.feeRateBps, trade.price, trade.size),
      liquidity: 'TAKER',
      status: trade.status,
      tsEvent,
      tsInit,
    });
  }
  return out;
}

/** How far a status is along the way to the chain: a fill is told again only at a later step (MINED and RETRYING may follow each other). */
const STATUS_STEP: Readonly<Record<string, number>> = { MATCHED: 0, MINED: 1, RETRYING: 1, CONFIRMED: 2, FAILED: 2 };

/**
 * True when a fill at status `next` is news after `seen` (undefined: never seen): a later step,
 * or the other of MINED/RETRYING. A re-sent or stale status is not (polls, the user channel and
 * its replay all judge by this).
 */
export function isNews(seen: string | undefined, next: string): boolean {
  if (seen === undefined) return true;
  const a = STATUS_STEP[seen] ?? 0;
  const b = STATUS_STEP[next] ?? 0;
  return b > a || (b === a && b === 1 && seen !== next);
}

function feeOf(bps: number | undefined, price: number, size: number): number {
  return bps === undefined || !(bps > 0) ? 0 : FeeRate.of(Math.floor(bps)).fee(price, size);
}
