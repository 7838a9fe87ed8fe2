import { DecodeError } from '../core/errors.ts';
import { MICROS_PER_UNIT, parseMicros, type Micros } from '../core/fixed.ts';
import type { ConditionId, OrderBook, Side, TokenId } from '../core/types.ts';
import { decodeOrderBook } from '../venue/decode.ts';

/**
 * Decoders of the WebSocket market channel (wire shapes in src/venue/wire/ws-market.ts): one
 * frame's text -> the messages it holds, in domain form. Prices and sizes go to Micros digit by
 * digit; a bad field throws a DecodeError naming its path (`message[2].price_changes[0].size`).
 * Every captured form is accepted: the current `price_changes[]` form and the older single-level
 * `price_change`, book snapshots with or without `tick_size` / `last_trade_price`, frames holding
 * one message or an array of them, and the custom-feature messages. Unknown `event_type`s decode
 * to `other` so a new venue message never breaks a client.
 */

/** One changed level of one asset; `size` 0 removes the level. */
export interface WsLevelChange {
  readonly tokenId: TokenId;
  /** BUY = a bid level, SELL = an ask level. */
  readonly side: Side;
  readonly price: Micros;
  readonly size: Micros;
  /** The asset's book hash after the change (absent on some old captures). */
  readonly hash: string | undefined;
  /** Top of the asset's book after the change; undefined when absent or empty ("0", "1"). */
  readonly bestBid: Micros | undefined;
  readonly bestAsk: Micros | undefined;
}

export type WsMarketMessage =
  /** A full snapshot; levels sorted (bids descending, asks ascending), tsInit from the caller. */
  | { readonly kind: 'book'; readonly book: OrderBook }
  | { readonly kind: 'priceChange'; readonly conditionId: ConditionId; readonly tsEvent: number; readonly changes: readonly WsLevelChange[] }
  | {
      readonly kind: 'lastTrade';
      readonly tokenId: TokenId;
      readonly conditionId: ConditionId;
      readonly price: Micros;
      readonly size: Micros;
      /** The taker's side. */
      readonly side: Side;
      readonly feeRateBps: number | undefined;
      readonly tsEvent: number;
    }
  | {
      readonly kind: 'tickSize';
      readonly tokenId: TokenId;
      readonly conditionId: ConditionId;
      readonly oldTickSize: Micros;
      readonly newTickSize: Micros;
      readonly tsEvent: number;
    }
  | {
      readonly kind: 'bestBidAsk';
      readonly tokenId: TokenId;
      readonly conditionId: ConditionId;
      readonly bestBid: Micros | undefined;
      readonly bestAsk: Micros | undefined;
      readonly tsEvent: number;
    }
  | { readonly kind: 'newMarket'; readonly conditionId: ConditionId; readonly tokenIds: readonly TokenId[]; readonly tsEvent: number }
  | {
      readonly kind: 'marketResolved';
      readonly conditionId: ConditionId;
      readonly tokenIds: readonly TokenId[];
      readonly winningTokenId: TokenId | undefined;
      readonly tsEvent: number;
    }
  | { readonly kind: 'other'; readonly eventType: string };

/** The server's answer to a text `PING`. */
export const WS_PONG = 'PONG';

/** Decodes one text frame: `PONG` gives no message; a JSON object one; a JSON array one each. */
export function decodeWsMarketText(text: string, tsInit: number): WsMarketMessage[] {
  if (text === WS_PONG) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DecodeError('(frame)', 'JSON text', text.length > 80 ? text.slice(0, 80) + '...' : text);
  }
  if (Array.isArray(value)) return value.map((v, i) => decodeWsMarketMessage(v, tsInit, `message[${i}]`));
  return [decodeWsMarketMessage(value, tsInit)];
}

/** One message object of the market channel. */
export function decodeWsMarketMessage(value: unknown, tsInit: number, path = 'message'): WsMarketMessage {
  const o = asObj(value, path);
  const eventType = reqStr(o, path, 'event_type');
  switch (eventType) {
    case 'book':
      return { kind: 'book', book: decodeOrderBook(o, tsInit, path) };
    case 'price_change':
      return decodePriceChange(o, path);
    case 'last_trade_price': {
      const fee = o['fee_rate_bps'];
      let feeRateBps: number | undefined;
      if (fee !== undefined && fee !== null && fee !== '') {
        feeRateBps = typeof fee === 'number' ? fee : typeof fee === 'string' && /^\d+$/.test(fee) ? Number(fee) : NaN;
        if (!Number.isSafeInteger(feeRateBps)) throw new DecodeError(`${path}.fee_rate_bps`, 'an integer of basis points', fee);
      }
      return {
        kind: 'lastTrade',
        tokenId: reqStr(o, path, 'asset_id'),
        conditionId: reqStr(o, path, 'market'),
        price: reqMicros(o, path, 'price'),
        size: reqMicros(o, path, 'size'),
        side: reqSide(o, path, 'side'),
        feeRateBps,
        tsEvent: reqTimestamp(o, path),
      };
    }
    case 'tick_size_change':
      return {
        kind: 'tickSize',
        tokenId: reqStr(o, path, 'asset_id'),
        conditionId: reqStr(o, path, 'market'),
        oldTickSize: reqMicros(o, path, 'old_tick_size'),
        newTickSize: positive(reqMicros(o, path, 'new_tick_size'), `${path}.new_tick_size`),
        tsEvent: reqTimestamp(o, path),
      };
    case 'best_bid_ask':
      return {
        kind: 'bestBidAsk',
        tokenId: reqStr(o, path, 'asset_id'),
        conditionId: reqStr(o, path, 'market'),
        bestBid: topBid(optMicros(o, path, 'best_bid')),
        bestAsk: topAsk(optMicros(o, path, 'best_ask')),
        tsEvent: reqTimestamp(o, path),
      };
    case 'new_market':
      return {
        kind: 'newMarket',
        conditionId: reqStr(o, path, 'market'),
        tokenIds: strArray(o['assets_ids'] ?? o['clob_token_ids'], `${path}.assets_ids`),
        tsEvent: reqTimestamp(o, path),
      };
    case 'market_resolved': {
      const winner = o['winning_asset_id'];
      if (winner !== undefined && winner !== null && typeof winner !== 'string') throw new DecodeError(`${path}.winning_asset_id`, 'a string', winner);
      return {
        kind: 'marketResolved',
        conditionId: reqStr(o, path, 'market'),
        tokenIds: strArray(o['assets_ids'], `${path}.assets_ids`),
        winningTokenId: winner ?? undefined,
        tsEvent: reqTimestamp(o, path),
      };
    }
    default:
      return { kind: 'other', eventType };
  }
}

function decodePriceChange(o: Obj, path: string): WsMarketMessage {
  const conditionId = reqStr(o, path, 'market');
  const tsEvent = reqTimestamp(o, path);
  const list = o['price_changes'];
  if (list === undefined || list === null) {
    // The older form: one level, its fields at the top.
    return { kind: 'priceChange', conditionId, tsEvent, changes: [levelChange(o, path)] };
  }
  if (!Array.isArray(list)) throw new DecodeError(`${path}.price_changes`, 'an array', list);
  const changes = new Array<WsLevelChange>(list.length);
  for (let i = 0; i < list.length; i++) {
    const p = `${path}.price_changes[${i}]`;
    changes[i] = levelChange(asObj(list[i], p), p);
  }
  return { kind: 'priceChange', conditionId, tsEvent, changes };
}

function levelChange(o: Obj, path: string): WsLevelChange {
  const hash = o['hash'];
  if (hash !== undefined && typeof hash !== 'string') throw new DecodeError(`${path}.hash`, 'a string', hash);
  return {
    tokenId: reqStr(o, path, 'asset_id'),
    side: reqSide(o, path, 'side'),
    price: reqMicros(o, path, 'price'),
    size: reqMicros(o, path, 'size'),
    hash,
    bestBid: topBid(optMicros(o, path, 'best_bid')),
    bestAsk: topAsk(optMicros(o, path, 'best_ask')),
  };
}

// ---------------------------------------------------------------------------------------------
// field readers

type Obj = Readonly<Record<string, unknown>>;

function asObj(v: unknown, path: string): Obj {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new DecodeError(path, 'an object', v);
  return v as Obj;
}

function reqStr(o: Obj, path: string, key: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new DecodeError(`${path}.${key}`, 'a string', v);
  return v;
}

function strArray(v: unknown, path: string): string[] {
  if (!Array.isArray(v)) throw new DecodeError(path, 'an array of strings', v);
  v.forEach((s, i) => {
    if (typeof s !== 'string') throw new DecodeError(`${path}[${i}]`, 'a string', s);
  });
  return v as string[];
}

function reqSide(o: Obj, path: string, key: string): Side {
  const v = o[key];
  if (v === 'BUY' || v === 'SELL') return v;
  throw new DecodeError(`${path}.${key}`, "'BUY' or 'SELL'", v);
}

/** A non-negative decimal string (a JSON number is accepted too, exactly as written). */
function reqMicros(o: Obj, path: string, key: string): Micros {
  const v = o[key];
  const m = typeof v === 'string' ? parseMicros(v) : typeof v === 'number' && Number.isFinite(v) ? parseMicros(String(v)) : NaN;
  if (Number.isNaN(m) || m < 0) throw new DecodeError(`${path}.${key}`, 'a non-negative decimal string with at most 6 decimals', v);
  return m;
}

function optMicros(o: Obj, path: string, key: string): Micros | undefined {
  const v = o[key];
  if (v === undefined || v === null || v === '') return undefined;
  return reqMicros(o, path, key);
}

function positive(m: Micros, path: string): Micros {
  if (m <= 0 || m >= MICROS_PER_UNIT) throw new DecodeError(path, 'a tick size in (0, 1)', m);
  return m;
}

/** `"0"` (or nothing) means no bid. */
function topBid(m: Micros | undefined): Micros | undefined {
  return m === undefined || m <= 0 ? undefined : m;
}

/** `"0"`, `"1"` (or nothing) mean no ask. */
function topAsk(m: Micros | undefined): Micros | undefined {
  return m === undefined || m <= 0 || m >= MICROS_PER_UNIT ? undefined : m;
}

/** `timestamp`: epoch ms as a digit string or an integer. */
function reqTimestamp(o: Obj, path: string): number {
  const v = o['timestamp'];
  if (typeof v === 'string' && /^\d{1,16}$/.test(v)) return Number(v);
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  throw new DecodeError(`${path}.timestamp`, 'epoch milliseconds', v);
}
