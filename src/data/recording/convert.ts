import { formatMicros } from '../../core/fixed.ts';
import type { BookLevel } from '../../core/types.ts';
import type { TradingMarket } from '../../venue/domain/trading.ts';
import type { MarketEvent } from '../../core/events.ts';
import { decodeRecordedEvent } from './decode-recorded.ts';
import type { RecordedEvent, RecordedLevel, RecordedMarket } from './format.ts';

/**
 * Conversions between the domain (`MarketEvent`, Micros) and the recording's JSON shape
 * (`RecordedEvent`, decimal strings). Exact both ways: `recordedToMarketEvent(marketEventToRecorded(e))`
 * equals `e` for every valid event (books come back sorted).
 */

function levels(list: readonly BookLevel[]): RecordedLevel[] {
  const out = new Array<RecordedLevel>(list.length);
  for (let i = 0; i < list.length; i++) {
    const l = list[i]!;
    out[i] = [formatMicros(l.price), formatMicros(l.size)];
  }
  return out;
}

export function marketEventToRecorded(event: MarketEvent): RecordedEvent {
  const { tsEvent, tsInit } = event;
  switch (event.type) {
    case 'book': {
      const b = event.book;
      return {
        t: 'book',
        tsEvent,
        tsInit,
        tokenId: b.tokenId,
        conditionId: b.conditionId,
        hash: b.hash,
        bids: levels(b.bids),
        asks: levels(b.asks),
        ...(b.tickSize !== undefined ? { tickSize: formatMicros(b.tickSize) } : {}),
        ...(b.minOrderSize !== undefined ? { minOrderSize: formatMicros(b.minOrderSize) } : {}),
        ...(b.negRisk !== undefined ? { negRisk: b.negRisk } : {}),
        ...(b.lastTradePrice !== undefined ? { lastTradePrice: formatMicros(b.lastTradePrice) } : {}),
      };
    }
    case 'prices':
      return {
        t: 'prices',
        tsEvent,
        tsInit,
        prices: event.prices.map((p) => ({
          tokenId: p.tokenId,
          ...(p.buy !== undefined ? { buy: formatMicros(p.buy) } : {}),
          ...(p.sell !== undefined ? { sell: formatMicros(p.sell) } : {}),
        })),
      };
    case 'trade':
      return { t: 'trade', tsEvent, tsInit, tokenId: event.tokenId, price: formatMicros(event.price), size: formatMicros(event.size), side: event.side };
    case 'walletTrade': {
      const w = event.trade;
      return { t: 'walletTrade', tsEvent, tsInit, wallet: w.wallet, txHash: w.txHash, tokenId: w.tokenId, conditionId: w.conditionId, side: w.side, price: formatMicros(w.price), size: formatMicros(w.size) };
    }
    case 'tickSize':
      return { t: 'tick', tsEvent, tsInit, tokenId: event.tokenId, tickSize: formatMicros(event.tickSize) };
    case 'marketClosed':
      return { t: 'close', tsEvent, tsInit, conditionId: event.conditionId, tokenIds: event.tokenIds };
    case 'marketResolved':
      return { t: 'resolve', tsEvent, tsInit, conditionId: event.conditionId, tokenIds: event.tokenIds, winner: event.winnerTokenId ?? null };
    case 'marketAdded':
      return { t: 'market', tsEvent, tsInit, market: event.market };
    case 'feeRate':
      return { t: 'fee', tsEvent, tsInit, tokenId: event.tokenId, takerBps: event.takerBps, makerBps: event.makerBps };
    case 'marketCleared':
      return { t: 'clear', tsEvent, tsInit, conditionId: event.conditionId, tokenIds: event.tokenIds };
  }
}

/** The domain event of a recorded one; a bad value throws a DecodeError naming the field. */
export function recordedToMarketEvent(event: RecordedEvent): MarketEvent {
  return decodeRecordedEvent(event);
}

/** A venue market as the recording header keeps it. */
export function recordedMarketOf(market: TradingMarket): RecordedMarket {
  return {
    conditionId: market.conditionId,
    question: market.question,
    slug: market.marketSlug || market.slug || '',
    negRisk: market.negRisk,
    ...(market.negRisk && market.negRiskMarketId ? { negRiskMarketId: market.negRiskMarketId } : {}),
    tickSize: formatMicros(market.tickSize),
    minOrderSize: formatMicros(market.minOrderSize),
    makerBaseFeeBps: market.makerBaseFeeBps,
    takerBaseFeeBps: market.takerBaseFeeBps,
    ...(market.secondsDelay > 0 ? { secondsDelay: market.secondsDelay } : {}),
    ...(market.gameStartTime !== undefined ? { gameStartTime: market.gameStartTime } : {}),
    ...(market.endDate !== undefined ? { endDate: market.endDate } : {}),
    tokens: market.tokens.map((t) => ({ tokenId: t.tokenId, outcome: t.outcome })),
    ...(market.rewards !== undefined ? { rewards: { dailyRate: market.rewards.dailyRate, minSize: formatMicros(market.rewards.minSize), maxSpreadCents: market.rewards.maxSpreadCents } } : {}),
  };
}
