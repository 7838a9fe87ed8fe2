import type { Micros } from '../../core/fixed.ts';
import type { OrderType, Side, TokenId } from '../../core/types.ts';
import type { PriceLevel } from './book-side.ts';
import type { Account, TokenHolding } from '../ledger.ts';
import type { BookEntry, MarketBook } from './market-book.ts';
import type { CancelReason, OrderState, OrderStatus, OutcomeIndex } from '../types.ts';

/**
 * The engine's mutable order: its state, its place in a price level's FIFO (an intrusive doubly
 * linked list, so a cancel is O(1)) and direct references to the balances it moves. Never handed
 * out; `toState()` makes the frozen view.
 */
export class OrderRecord implements BookEntry<OrderRecord> {
  status: OrderStatus = 'LIVE';
  cancelReason: CancelReason | undefined = undefined;
  /** Open size: what is left to fill. */
  remaining: Micros;
  sizeMatched: Micros = 0;
  /** Trade ids, allocated on the first fill (most resting orders never fill). */
  associateTrades: string[] | null = null;
  prev: OrderRecord | null = null;
  next: OrderRecord | null = null;
  level: PriceLevel<OrderRecord> | null = null;

  constructor(
    readonly id: string,
    readonly seq: number,
    readonly owner: string,
    readonly address: string,
    readonly book: MarketBook<OrderRecord>,
    readonly tokenIndex: OutcomeIndex,
    readonly tokenId: TokenId,
    readonly side: Side,
    /** Own-token price. */
    readonly price: Micros,
    /** Price in YES terms: `price` for YES, 1 - `price` for NO. */
    readonly yesPrice: Micros,
    /** True when the order sits on the YES bid side: BUY YES or SELL NO. */
    readonly isBid: boolean,
    readonly originalSize: Micros,
    readonly type: OrderType,
    readonly postOnly: boolean,
    readonly createdAt: number,
    readonly expiration: number | undefined,
    readonly clientMetadata: string | undefined,
    readonly account: Account,
    readonly holding: TokenHolding,
  ) {
    this.remaining = originalSize;
  }

  addTrade(tradeId: string): void {
    if (this.associateTrades === null) this.associateTrades = [tradeId];
    else this.associateTrades.push(tradeId);
  }

  toState(): OrderState {
    return Object.freeze({
      id: this.id,
      status: this.status,
      conditionId: this.book.conditionId,
      tokenId: this.tokenId,
      outcomeIndex: this.tokenIndex,
      owner: this.owner,
      address: this.address,
      side: this.side,
      price: this.price,
      originalSize: this.originalSize,
      sizeMatched: this.sizeMatched,
      openSize: this.status === 'LIVE' ? this.remaining : 0,
      type: this.type,
      postOnly: this.postOnly,
      createdAt: this.createdAt,
      expiration: this.expiration,
      clientMetadata: this.clientMetadata,
      associateTrades: Object.freeze(this.associateTrades === null ? [] : this.associateTrades.slice()),
      cancelReason: this.cancelReason,
    });
  }
}
