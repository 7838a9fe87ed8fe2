import type { BasketEvent } from '../core/basket-events.ts';
import type { LifecycleEvent } from '../core/events.ts';
import { formatMicros } from '../core/fixed.ts';
import { describeHealth } from '../engine/health.ts';
import { JOURNAL_MARKET, JOURNAL_MARKETS, JOURNAL_USER_CHANNEL, type JournalInput } from './store-types.ts';

/** The journal columns of an event: its type label, its time and the strategy it belongs to. */
export function journalColumns(event: JournalInput): { type: string; at: number; strategyId: string | null } {
  switch (event.type) {
    case 'order':
      return { type: event.event.type, at: event.event.tsInit, strategyId: event.strategyId };
    case 'fill':
      return { type: 'OrderFilled', at: event.fill.tsInit, strategyId: event.strategyId };
    case 'heartbeat':
      return { type: 'Heartbeat', at: event.at, strategyId: null };
    case 'fault':
      return { type: 'StrategyFaulted', at: event.at, strategyId: event.strategyId };
    case 'run':
      return { type: 'Run', at: event.at, strategyId: null };
    case 'markets':
      return { type: JOURNAL_MARKETS, at: event.at, strategyId: null };
    case 'market':
      return { type: JOURNAL_MARKET, at: event.event.tsInit, strategyId: null };
    case 'lifecycle':
      return { type: event.event.type, at: event.event.tsInit, strategyId: event.event.type === 'ParamsUpdated' ? event.event.strategyId : null };
    case 'basket':
      return { type: event.event.type, at: event.event.tsInit, strategyId: event.strategyId };
    case 'command':
      return { type: 'Command', at: event.at, strategyId: 'strategyId' in event.command && event.command.strategyId !== undefined ? event.command.strategyId : null };
    case 'HealthChanged':
      return { type: 'HealthChanged', at: event.at, strategyId: null };
    case 'userChannel':
      return { type: JOURNAL_USER_CHANNEL, at: event.at, strategyId: null };
  }
}

/** One line describing a journaled event, for `clobot status`. */
export function describeJournalEvent(event: JournalInput): string {
  switch (event.type) {
    case 'order': {
      const e = event.event;
      switch (e.type) {
        case 'OrderAccepted':
          return `${e.clientOrderId} accepted as ${e.orderId}`;
        case 'OrderRejected':
          return `${e.clientOrderId} rejected: ${e.reason}`;
        case 'OrderDenied':
          return `${e.clientOrderId} denied ${e.code}: ${e.reason}`;
        case 'OrderCanceled':
          return `${e.clientOrderId} canceled: ${e.reason}`;
        case 'OrderSubmitUnknown':
          return `${e.clientOrderId} outcome unknown (${e.orderId})`;
        case 'OrderExpired':
          return `${e.clientOrderId} expired`;
      }
      return '';
    }
    case 'fill': {
      const f = event.fill;
      return `${f.clientOrderId} ${f.side} ${formatMicros(f.size)} @ ${formatMicros(f.price)} fee ${formatMicros(f.fee)} ${f.liquidity}${f.confirmed ? ' confirmed' : ''} (trade ${f.tradeId})`;
    }
    case 'heartbeat':
      return `heartbeat ${event.health}`;
    case 'fault':
      return `strategy faulted: ${event.message}`;
    case 'run':
      return event.message;
    case 'lifecycle':
      return describeLifecycle(event.event);
    case 'basket':
      return describeBasket(event.event);
    case 'command':
      return `command ${event.command.type}${event.result.ok ? '' : ' refused'}: ${event.result.message}`;
    case 'HealthChanged':
      return `health ${describeHealth(event.state)}`;
    case 'userChannel':
      return describeUserChannel(event.text);
    case 'markets':
      return `markets: ${event.markets.map((m) => m.slug || m.conditionId).join(', ')} (from ${event.source})`;
    case 'market': {
      const e = event.event;
      switch (e.type) {
        case 'book':
          return `book ${e.book.tokenId}: ${e.book.bids.length} bids, ${e.book.asks.length} asks`;
        case 'prices':
          return `prices of ${e.prices.length} token${e.prices.length === 1 ? '' : 's'}`;
        case 'trade':
          return `trade ${e.tokenId} ${e.side} ${formatMicros(e.size)} @ ${formatMicros(e.price)}`;
        case 'walletTrade':
          return `wallet ${e.trade.wallet} ${e.trade.side} ${formatMicros(e.trade.size)} @ ${formatMicros(e.trade.price)} of ${e.trade.tokenId} (tx ${e.trade.txHash})`;
        case 'tickSize':
          return `tick size ${e.tokenId} ${formatMicros(e.tickSize)}`;
        case 'marketClosed':
          return `market ${e.conditionId} closed (venue)`;
        case 'marketResolved':
          return `market ${e.conditionId} resolved (venue): ${e.winnerTokenId === undefined ? 'no winner' : `winner ${e.winnerTokenId}`}`;
        case 'feeRate':
          return `fee rate ${e.tokenId} (venue): taker ${e.takerBps} bps, maker ${e.makerBps} bps`;
        case 'marketCleared':
          return `market ${e.conditionId} book cleared (venue, game start)`;
      }
      return '';
    }
  }
}

/** One line for a user-channel message: `trade <id> <status>` or `order <id> <type> <status>`. */
function describeUserChannel(text: string): string {
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return 'user channel: unreadable message';
  }
  const field = (k: string): string => (typeof m[k] === 'string' ? m[k] : '');
  if (field('event_type') === 'trade') return `user channel: trade ${field('id')} ${field('status')}`;
  if (field('event_type') === 'order') return `user channel: order ${field('id')} ${field('type')} ${field('status')}`;
  return `user channel: ${field('event_type') || 'message'}`;
}

/** One line for a basket's outcome. */
function describeBasket(e: BasketEvent): string {
  const filled = e.legs.filter((l) => l.filled >= l.size).length;
  const head = `basket ${e.basketId}${e.ref === undefined ? '' : ` (${e.ref})`}: ${filled}/${e.legs.length} legs filled, cost ${formatMicros(e.cost)}`;
  switch (e.type) {
    case 'BasketCompleted':
      return `${head}, completed`;
    case 'BasketPartial':
      return `${head}, partial, held`;
    case 'BasketUnwound':
      return `${head}, unwound${e.flat ? '' : ' in part'}: loss ${formatMicros(e.loss)} (cap ${formatMicros(e.maxUnwindLoss)})`;
  }
}

/** One line for a lifecycle event (a market closed, resolved, ...; a fill's settlement moved). */
function describeLifecycle(e: LifecycleEvent): string {
  switch (e.type) {
    case 'MarketClosed':
      return `market ${e.conditionId} closed`;
    case 'MarketResolved':
      return `market ${e.conditionId} resolved: ${e.winnerTokenId === undefined ? 'no winner' : `winner ${e.winnerTokenId}`}`;
    case 'TickSizeChanged':
      return `tick size ${e.tokenId} ${formatMicros(e.previousTickSize)} -> ${formatMicros(e.tickSize)}`;
    case 'MarketAdded':
      return `market ${e.conditionId} added (${e.tokenIds.length} tokens)`;
    case 'MarketRemoved':
      return `market ${e.conditionId} removed: ${e.reason}`;
    case 'SettlementChanged':
      return `${e.clientOrderId} trade ${e.tradeId} ${e.status}`;
    case 'Halted':
      return `trading halted (${e.name}): ${e.reason}`;
    case 'Resumed':
      return `trading resumed (${e.name} lifted)`;
    case 'ParamsUpdated':
      return `params of ${e.strategyId} updated: ${e.changed.join(', ')}`;
    case 'VenueStateChanged':
      return `venue ${e.state}${e.retryAfterMs === undefined ? '' : ` (retry after ${e.retryAfterMs} ms)`}`;
    case 'FeeRateChanged':
      return `fee rate ${e.tokenId}: taker ${e.previousTakerBps} -> ${e.takerBps} bps, maker ${e.makerBps} bps`;
    case 'MarketCleared':
      return `market ${e.conditionId} cleared by the venue (${e.reason}): our resting orders in it gone`;
  }
}
