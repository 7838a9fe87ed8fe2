import { ParameterError } from '../../core/errors.ts';
import { formatMicros, type Micros } from '../../core/fixed.ts';
import type { BookLevel } from '../../core/types.ts';
import type { MarketEvent } from '../../core/events.ts';
import type { RecordedMarket, RecordingHeader } from './format.ts';

/**
 * One event as its JSON line (no newline), built by hand for speed: the same text as
 * `JSON.stringify(marketEventToRecorded(event))`, keys in the order the README shows (`t`,
 * `tsEvent`, `tsInit`, ...), which is also the order the line scanner expects first.
 */
export function encodeEventLine(event: MarketEvent): string {
  const head = `"tsEvent":${int(event.tsEvent)},"tsInit":${int(event.tsInit)}`;
  switch (event.type) {
    case 'book': {
      const b = event.book;
      let s = `{"t":"book",${head},"tokenId":${JSON.stringify(b.tokenId)},"conditionId":${JSON.stringify(b.conditionId)},"hash":${JSON.stringify(b.hash)},"bids":${levels(b.bids)},"asks":${levels(b.asks)}`;
      if (b.tickSize !== undefined) s += `,"tickSize":"${dec(b.tickSize, 'tickSize')}"`;
      if (b.minOrderSize !== undefined) s += `,"minOrderSize":"${dec(b.minOrderSize, 'minOrderSize')}"`;
      if (b.negRisk !== undefined) s += `,"negRisk":${b.negRisk ? 'true' : 'false'}`;
      if (b.lastTradePrice !== undefined) s += `,"lastTradePrice":"${dec(b.lastTradePrice, 'lastTradePrice')}"`;
      return s + '}';
    }
    case 'prices': {
      let s = `{"t":"prices",${head},"prices":[`;
      for (let i = 0; i < event.prices.length; i++) {
        const p = event.prices[i]!;
        if (i > 0) s += ',';
        s += `{"tokenId":${JSON.stringify(p.tokenId)}`;
        if (p.buy !== undefined) s += `,"buy":"${dec(p.buy, 'buy')}"`;
        if (p.sell !== undefined) s += `,"sell":"${dec(p.sell, 'sell')}"`;
        s += '}';
      }
      return s + ']}';
    }
    case 'trade':
      return `{"t":"trade",${head},"tokenId":${JSON.stringify(event.tokenId)},"price":"${dec(event.price, 'price')}","size":"${dec(event.size, 'size')}","side":${JSON.stringify(event.side)}}`;
    case 'walletTrade': {
      const w = event.trade;
      return `{"t":"walletTrade",${head},"wallet":${JSON.stringify(w.wallet)},"txHash":${JSON.stringify(w.txHash)},"tokenId":${JSON.stringify(w.tokenId)},"conditionId":${JSON.stringify(w.conditionId)},"side":${JSON.stringify(w.side)},"price":"${dec(w.price, 'price')}","size":"${dec(w.size, 'size')}"}`;
    }
    case 'tickSize':
      return `{"t":"tick",${head},"tokenId":${JSON.stringify(event.tokenId)},"tickSize":"${dec(event.tickSize, 'tickSize')}"}`;
    case 'marketClosed':
      return `{"t":"close",${head},"conditionId":${JSON.stringify(event.conditionId)},"tokenIds":${JSON.stringify(event.tokenIds)}}`;
    case 'marketResolved':
      return `{"t":"resolve",${head},"conditionId":${JSON.stringify(event.conditionId)},"tokenIds":${JSON.stringify(event.tokenIds)},"winner":${JSON.stringify(event.winnerTokenId ?? null)}}`;
    case 'marketAdded':
      return `{"t":"market",${head},"market":${encodeMarket(event.market)}}`;
    case 'feeRate':
      return `{"t":"fee",${head},"tokenId":${JSON.stringify(event.tokenId)},"takerBps":${bps(event.takerBps, 'takerBps')},"makerBps":${bps(event.makerBps, 'makerBps')}}`;
    case 'marketCleared':
      return `{"t":"clear",${head},"conditionId":${JSON.stringify(event.conditionId)},"tokenIds":${JSON.stringify(event.tokenIds)}}`;
  }
}

/** The header line (no newline). */
export function encodeHeaderLine(header: RecordingHeader): string {
  return JSON.stringify({
    format: header.format,
    version: header.version,
    createdAt: header.createdAt,
    source: header.source,
    markets: header.markets,
    ...(header.events !== undefined && header.events.length > 0 ? { events: header.events } : {}),
    ...(header.medianUpdateMs !== undefined ? { medianUpdateMs: header.medianUpdateMs } : {}),
  });
}

/** One market of a `market` event, with the fields and key order of a header entry. */
export function encodeMarket(m: RecordedMarket): string {
  return JSON.stringify({
    conditionId: m.conditionId,
    question: m.question,
    slug: m.slug,
    negRisk: m.negRisk,
    ...(m.negRiskMarketId !== undefined ? { negRiskMarketId: m.negRiskMarketId } : {}),
    tickSize: m.tickSize,
    minOrderSize: m.minOrderSize,
    makerBaseFeeBps: m.makerBaseFeeBps,
    takerBaseFeeBps: m.takerBaseFeeBps,
    ...(m.secondsDelay !== undefined && m.secondsDelay > 0 ? { secondsDelay: m.secondsDelay } : {}),
    ...(m.gameStartTime !== undefined ? { gameStartTime: m.gameStartTime } : {}),
    ...(m.endDate !== undefined ? { endDate: m.endDate } : {}),
    tokens: m.tokens.map((t) => ({ tokenId: t.tokenId, outcome: t.outcome })),
    ...(m.rewards !== undefined ? { rewards: { dailyRate: m.rewards.dailyRate, minSize: m.rewards.minSize, maxSpreadCents: m.rewards.maxSpreadCents } } : {}),
  });
}

function levels(list: readonly BookLevel[]): string {
  if (list.length === 0) return '[]';
  let s = '[';
  for (let i = 0; i < list.length; i++) {
    const l = list[i]!;
    s += `${i === 0 ? '' : ','}["${dec(l.price, 'price')}","${dec(l.size, 'size')}"]`;
  }
  return s + ']';
}

/** Times are integers; anything else would not read back. */
function int(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new ParameterError('recording', 'tsEvent/tsInit', `must be a non-negative integer of epoch ms, was ${n}`);
  return String(n);
}

/** Fee rates in a recording are whole non-negative basis points, as the venue serves them. */
export function bps(n: number, field: string): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new ParameterError('recording', field, `must be a whole number of basis points >= 0, was ${n}`);
  return String(n);
}

/** Prices and sizes in a recording are non-negative Micros (the reader refuses anything else). */
export function dec(m: Micros, field: string): string {
  if (!Number.isSafeInteger(m) || m < 0) throw new ParameterError('recording', field, `must be a non-negative integer of Micros, was ${m}`);
  return formatMicros(m);
}
