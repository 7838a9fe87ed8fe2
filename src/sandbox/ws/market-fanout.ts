import type { ConditionId, OrderBook, TokenId } from '../../core/types.ts';
import type { MatchingEngine } from '../../sim/matching/matching-engine.ts';
import type { BookChanged, SimEvent, TickSizeChanged, TokenTop, Trade } from '../../sim/types.ts';
import type { WireWsPriceChange } from '../../venue/wire/ws-market.ts';
import { bestBidAskMessage, lastTradeMessage, priceChangeMessage, priceChanges, tickSizeMessage } from './market-messages.ts';
import type { SnapshotTexts } from './snapshot-texts.ts';
import { textFrame } from './text-frame.ts';

/** A connection as the fan-out sees it. */
export interface FanoutTarget {
  /** True when it asked for `best_bid_ask` (`custom_feature_enabled`). */
  readonly custom: boolean;
}

export interface MarketFanoutParts<T extends FanoutTarget> {
  readonly engine: MatchingEngine;
  /** The snapshot texts, told of every event (a change makes texts stale). */
  readonly texts: SnapshotTexts;
  /** The connections that hold an asset's deltas, if any. */
  readonly subscribers: (tokenId: TokenId) => ReadonlySet<T> | undefined;
  /** True when any connection holds any asset. */
  readonly anySubscriber: () => boolean;
  /** Queues a market message (its whole frame) for a connection. */
  readonly send: (target: T, frame: Buffer) => void;
}

/**
 * The market channel's deltas (PROTOCOL "Market data"), from the matching engine's events, each
 * message framed once for all the connections it goes to: `BookChanged` -> `price_change` (one
 * message per market per connection, only the assets it holds; size = new aggregate, `"0"`
 * removes), `TradeExecuted` -> `last_trade_price` for the taker's asset and, mirrored (1 - price,
 * other side), for its complement; `TickSizeChanged` -> `tick_size_change` followed by a fresh
 * `book` of the asset; and, for connections with `custom_feature_enabled`, `best_bid_ask`
 * whenever an asset's top of book changes.
 */
export class MarketFanout<T extends FanoutTarget> {
  readonly #parts: MarketFanoutParts<T>;
  readonly #pairs = new Map<ConditionId, readonly [TokenId, TokenId]>();
  /** Last top sent as best_bid_ask, per asset with a custom-feature subscriber. */
  readonly #lastTop = new Map<TokenId, string>();

  constructor(parts: MarketFanoutParts<T>) {
    this.#parts = parts;
  }

  /** Notes the top of a book a custom-feature subscriber's snapshot showed (best_bid_ask goes out when it changes). */
  noteTop(book: OrderBook): void {
    this.#lastTop.set(book.tokenId, topKey(book.bids[0]?.price, book.asks[0]?.price));
  }

  /** Forgets the last top of an asset no connection holds any more. */
  forgetAsset(tokenId: TokenId): void {
    this.#lastTop.delete(tokenId);
  }

  /** Sends what an engine event means to the connections that hold its assets (and drops the snapshot texts it makes stale). */
  onEvent(event: SimEvent): void {
    this.#parts.texts.forget(event, (conditionId) => this.#pair(conditionId));
    if (!this.#parts.anySubscriber()) return;
    switch (event.type) {
      case 'BookChanged':
        this.#onBookChanged(event);
        return;
      case 'TradeExecuted':
        this.#onTrade(event.trade, event.ts);
        return;
      case 'TickSizeChanged':
        this.#onTickSize(event);
        return;
      default:
        return;
    }
  }

  #onBookChanged(event: BookChanged): void {
    const [yesTop, noTop] = event.tops;
    this.#pairs.set(event.conditionId, [yesTop.tokenId, noTop.tokenId]);
    const yesSubs = this.#parts.subscribers(yesTop.tokenId);
    const noSubs = this.#parts.subscribers(noTop.tokenId);
    if (yesSubs === undefined && noSubs === undefined) return;
    let yesChanges: WireWsPriceChange[] | undefined;
    let noChanges: WireWsPriceChange[] | undefined;
    // One text per distinct asset set (YES, NO, both), made on first use.
    const texts: (Buffer | undefined)[] = [undefined, undefined, undefined, undefined];
    const textFor = (mask: number): Buffer => {
      let text = texts[mask];
      if (text === undefined) {
        yesChanges ??= mask & 1 ? priceChanges(event, yesTop) : undefined;
        noChanges ??= mask & 2 ? priceChanges(event, noTop) : undefined;
        const list = mask === 3 ? [...(yesChanges ?? []), ...(noChanges ?? [])] : mask === 1 ? (yesChanges ?? []) : (noChanges ?? []);
        text = textFrame(JSON.stringify(priceChangeMessage(event, list)));
        texts[mask] = text;
      }
      return text;
    };
    if (yesSubs !== undefined) {
      for (const conn of yesSubs) this.#parts.send(conn, textFor(noSubs?.has(conn) === true ? 3 : 1));
    }
    if (noSubs !== undefined) {
      for (const conn of noSubs) if (yesSubs?.has(conn) !== true) this.#parts.send(conn, textFor(2));
    }
    this.#bestBidAsk(event.conditionId, yesTop, yesSubs, event.ts);
    this.#bestBidAsk(event.conditionId, noTop, noSubs, event.ts);
  }

  #bestBidAsk(conditionId: ConditionId, top: TokenTop, subs: ReadonlySet<T> | undefined, ts: number): void {
    if (subs === undefined) return;
    const key = topKey(top.bestBid, top.bestAsk);
    if (this.#lastTop.get(top.tokenId) === key) return;
    let text: Buffer | undefined;
    for (const conn of subs) {
      if (!conn.custom) continue;
      this.#lastTop.set(top.tokenId, key);
      text ??= textFrame(JSON.stringify(bestBidAskMessage(conditionId, top, ts)));
      this.#parts.send(conn, text);
    }
  }

  #onTrade(trade: Trade, ts: number): void {
    const pair = this.#pair(trade.conditionId);
    if (pair === undefined) return;
    for (const tokenId of pair) {
      const subs = this.#parts.subscribers(tokenId);
      if (subs === undefined) continue;
      const text = textFrame(JSON.stringify(lastTradeMessage(trade, ts, tokenId)));
      for (const conn of subs) this.#parts.send(conn, text);
    }
  }

  #onTickSize(event: TickSizeChanged): void {
    const now = event.ts;
    for (const tokenId of event.tokenIds) {
      const subs = this.#parts.subscribers(tokenId);
      if (subs === undefined) continue;
      const tick = textFrame(JSON.stringify(tickSizeMessage(event, tokenId)));
      for (const conn of subs) this.#parts.send(conn, tick);
      // Clients drop their book on a tick change (PROTOCOL); send the new one right away.
      const snapshot = textFrame(this.#parts.texts.bookText(this.#parts.engine.book(tokenId, now)));
      for (const conn of this.#parts.subscribers(tokenId) ?? []) this.#parts.send(conn, snapshot);
    }
  }

  #pair(conditionId: ConditionId): readonly [TokenId, TokenId] | undefined {
    let pair = this.#pairs.get(conditionId);
    if (pair === undefined) {
      pair = this.#parts.engine.market(conditionId)?.tokenIds;
      if (pair !== undefined) this.#pairs.set(conditionId, pair);
    }
    return pair;
  }

}

function topKey(bid: number | undefined, ask: number | undefined): string {
  return `${bid ?? ''}|${ask ?? ''}`;
}
