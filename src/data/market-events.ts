import type { Micros } from '../core/fixed.ts';
import type { OrderBook, Side, TokenId, TokenPrices } from '../core/types.ts';

/**
 * What a market-data source emits, each event with venue time (`tsEvent`) and receipt time
 * (`tsInit`), epoch ms. The recorder writes exactly these; the backtest replays them by tsInit.
 */
export type MarketEvent =
  | { readonly type: 'book'; readonly book: OrderBook; readonly tsEvent: number; readonly tsInit: number }
  | { readonly type: 'prices'; readonly prices: readonly TokenPrices[]; readonly tsEvent: number; readonly tsInit: number }
  | {
      readonly type: 'trade';
      readonly tokenId: TokenId;
      readonly price: Micros;
      readonly size: Micros;
      readonly side: Side;
      readonly tsEvent: number;
      readonly tsInit: number;
    }
  | { readonly type: 'tickSize'; readonly tokenId: TokenId; readonly tickSize: Micros; readonly tsEvent: number; readonly tsInit: number };
