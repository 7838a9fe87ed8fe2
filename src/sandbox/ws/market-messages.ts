import { formatMicros, MICROS_PER_UNIT, type Micros } from '../../core/fixed.ts';
import type { BookLevel, OrderBook, TokenId } from '../../core/types.ts';
import type { BookChanged, TickSizeChanged, TokenTop, Trade } from '../../sim/types.ts';
import type {
  WireWsBestBidAsk,
  WireWsBook,
  WireWsLastTradePrice,
  WireWsLevel,
  WireWsPriceChange,
  WireWsPriceChangeMessage,
  WireWsTickSizeChange,
} from '../../venue/wire/ws-market.ts';

/**
 * Engine state and events in the market channel's wire shapes. An absent best bid is sent as
 * `"0"` and an absent best ask as `"1"` (the bounds of the price range, so a client that parses
 * them gets an empty spread, never a crossed one).
 */

const NO_BID = '0';
const NO_ASK = '1';

function levels(side: readonly BookLevel[]): WireWsLevel[] {
  // The venue sends the best level last (bids ascending, asks descending); so do we.
  const out = new Array<WireWsLevel>(side.length);
  for (let i = 0, j = side.length - 1; j >= 0; i++, j--) {
    const l = side[j] as BookLevel;
    out[i] = { price: formatMicros(l.price), size: formatMicros(l.size) };
  }
  return out;
}

export function bookMessage(book: OrderBook): WireWsBook {
  const message: WireWsBook = {
    event_type: 'book',
    market: book.conditionId,
    asset_id: book.tokenId,
    timestamp: String(book.tsEvent),
    hash: book.hash,
    bids: levels(book.bids),
    asks: levels(book.asks),
  };
  if (book.tickSize !== undefined) message.tick_size = formatMicros(book.tickSize);
  if (book.lastTradePrice !== undefined) message.last_trade_price = formatMicros(book.lastTradePrice);
  return message;
}

function best(price: Micros | undefined, none: string): string {
  return price === undefined ? none : formatMicros(price);
}

/** The entries of one asset in a BookChanged (`top` is that asset's top after the change). */
export function priceChanges(event: BookChanged, top: TokenTop): WireWsPriceChange[] {
  const out: WireWsPriceChange[] = [];
  const bestBid = best(top.bestBid, NO_BID);
  const bestAsk = best(top.bestAsk, NO_ASK);
  for (const c of event.changes) {
    if (c.tokenId !== top.tokenId) continue;
    out.push({
      asset_id: c.tokenId,
      price: formatMicros(c.price),
      side: c.side,
      size: formatMicros(c.size),
      hash: top.hash,
      best_bid: bestBid,
      best_ask: bestAsk,
    });
  }
  return out;
}

export function priceChangeMessage(event: BookChanged, changes: WireWsPriceChange[]): WireWsPriceChangeMessage {
  return { market: event.conditionId, price_changes: changes, timestamp: String(event.ts), event_type: 'price_change' };
}

/** A trade as seen by one asset: the taker's own, or the complement (1 - price, other side). */
export function lastTradeMessage(trade: Trade, ts: number, tokenId: TokenId): WireWsLastTradePrice {
  const own = tokenId === trade.tokenId;
  return {
    asset_id: tokenId,
    event_type: 'last_trade_price',
    fee_rate_bps: String(trade.feeRateBps),
    market: trade.conditionId,
    price: formatMicros(own ? trade.price : MICROS_PER_UNIT - trade.price),
    side: own ? trade.side : trade.side === 'BUY' ? 'SELL' : 'BUY',
    size: formatMicros(trade.size),
    timestamp: String(ts),
  };
}

export function tickSizeMessage(event: TickSizeChanged, tokenId: TokenId): WireWsTickSizeChange {
  return {
    asset_id: tokenId,
    event_type: 'tick_size_change',
    market: event.conditionId,
    new_tick_size: formatMicros(event.newTickSize),
    old_tick_size: formatMicros(event.oldTickSize),
    timestamp: String(event.ts),
  };
}

export function bestBidAskMessage(conditionId: string, top: TokenTop, ts: number): WireWsBestBidAsk {
  const spread = (top.bestAsk ?? MICROS_PER_UNIT) - (top.bestBid ?? 0);
  return {
    event_type: 'best_bid_ask',
    market: conditionId,
    asset_id: top.tokenId,
    best_bid: best(top.bestBid, NO_BID),
    best_ask: best(top.bestAsk, NO_ASK),
    spread: formatMicros(spread),
    timestamp: String(ts),
  };
}
