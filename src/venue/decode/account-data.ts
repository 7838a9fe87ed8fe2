import { DecodeError } from '../../core/errors.ts';
import type { AccountOrder, AccountTrade, MakerOrderFill } from '../domain/account.ts';
import { TRADE_STATUSES, type TradeStatus, VENUE_ORDER_STATUSES, type VenueOrderStatus } from '../domain/statuses.ts';
import type { Page } from '../domain/trading.ts';
import {
  asObj,
  at,
  listOf,
  optDate,
  optInt,
  optMicros,
  optNum,
  optSide,
  optStr,
  optStrings,
  reqId,
  reqMicros,
  reqSide,
  reqStr,
} from './fields.ts';
import { decodePage } from './markets.ts';

/**
 * Decoders of account data (interface 2.14, 2.15): camelCase (interface) and snake_case (venue docs)
 * both read; statuses of both profiles into the closed unions of domain/statuses.ts, once.
 */

const ORDER_STATUS_SET: ReadonlySet<string> = new Set(VENUE_ORDER_STATUSES);
const TRADE_STATUS_SET: ReadonlySet<string> = new Set(TRADE_STATUSES);
const ORDER_STATUS_EXPECTED = `one of ${VENUE_ORDER_STATUSES.join(', ')} (optionally ORDER_STATUS_-prefixed)`;
const TRADE_STATUS_EXPECTED = `one of ${TRADE_STATUSES.join(', ')} (optionally TRADE_STATUS_-prefixed)`;

/** A wire status in either profile (`LIVE`, `ORDER_STATUS_LIVE`, any case) as its bare upper-case name. */
function bareStatus(raw: string, prefix: string): string {
  const upper = raw.toUpperCase();
  return upper.startsWith(prefix) ? upper.slice(prefix.length) : upper;
}

/** An order status into the closed union; an unknown one is a DecodeError naming the field. */
export function orderStatus(raw: string, field: string): VenueOrderStatus {
  const s = bareStatus(raw, 'ORDER_STATUS_');
  if (!ORDER_STATUS_SET.has(s)) throw new DecodeError(field, ORDER_STATUS_EXPECTED, raw);
  return s as VenueOrderStatus;
}

/** A trade status into the closed union; an unknown one is a DecodeError naming the field. */
function tradeStatus(raw: string, field: string): TradeStatus {
  const s = bareStatus(raw, 'TRADE_STATUS_');
  if (!TRADE_STATUS_SET.has(s)) throw new DecodeError(field, TRADE_STATUS_EXPECTED, raw);
  return s as TradeStatus;
}

function decodeMakerOrder(v: unknown, path: string): MakerOrderFill {
  const o = asObj(v, path);
  return {
    orderId: reqStr(o, path, 'order_id', 'orderId'),
    makerAddress: optStr(o, path, 'maker_address', 'makerAddress'),
    owner: optStr(o, path, 'owner'),
    matchedAmount: reqMicros(o, path, 'matched_amount', 'matchedAmount'),
    feeRateBps: optNum(o, path, 'fee_rate_bps', 'feeRateBps'),
    price: reqMicros(o, path, 'price'),
    assetId: reqStr(o, path, 'asset_id', 'assetId'),
    outcome: optStr(o, path, 'outcome'),
    side: optSide(o, path, 'side'),
  };
}

export function decodeAccountTrade(value: unknown, path = 'trade'): AccountTrade {
  const o = asObj(value, path);
  return {
    id: reqId(o, path, 'id'),
    takerOrderId: optStr(o, path, 'taker_order_id', 'takerOrderId'),
    market: reqStr(o, path, 'market'),
    assetId: reqStr(o, path, 'asset_id', 'assetId'),
    side: reqSide(o, path, 'side'),
    size: reqMicros(o, path, 'size'),
    feeRateBps: optNum(o, path, 'fee_rate_bps', 'feeRateBps'),
    price: reqMicros(o, path, 'price'),
    status: tradeStatus(reqStr(o, path, 'status'), at(path, 'status')),
    matchTime: optDate(o, path, 'match_time', 'matchTime'),
    lastUpdate: optDate(o, path, 'last_update', 'lastUpdate'),
    outcome: optStr(o, path, 'outcome'),
    bucketIndex: optInt(o, path, 'bucket_index', 'bucketIndex'),
    owner: optStr(o, path, 'owner'),
    makerAddress: optStr(o, path, 'maker_address', 'makerAddress'),
    transactionHash: optStr(o, path, 'transaction_hash', 'transactionHash'),
    traderSide: optStr(o, path, 'type', 'trader_side', 'traderSide'),
    makerOrders: listOf(o, path, decodeMakerOrder, 'maker_orders', 'makerOrders'),
  };
}

export function decodeAccountOrder(value: unknown, path = 'order'): AccountOrder {
  const o = asObj(value, path);
  return {
    id: reqStr(o, path, 'id'),
    status: orderStatus(reqStr(o, path, 'status'), at(path, 'status')),
    market: reqStr(o, path, 'market'),
    assetId: reqStr(o, path, 'assetId', 'asset_id'),
    side: reqSide(o, path, 'side'),
    originalSize: reqMicros(o, path, 'originalSize', 'original_size'),
    sizeMatched: optMicros(o, path, 'sizeMatched', 'size_matched') ?? 0,
    price: reqMicros(o, path, 'price'),
    outcome: optStr(o, path, 'outcome'),
    makerAddress: optStr(o, path, 'makerAddress', 'maker_address'),
    owner: optStr(o, path, 'owner'),
    orderType: optStr(o, path, 'type', 'order_type', 'orderType'),
    createdAt: optDate(o, path, 'createdAt', 'created_at'),
    expiration: optDate(o, path, 'expiration') || undefined, // "0": no expiration
    associateTrades: optStrings(o, path, 'associateTrades', 'associate_trades') ?? [],
    metadata: optStr(o, path, 'metadata'),
  };
}

/** `GET /data/trades`. */
export function decodeAccountTradesPage(value: unknown): Page<AccountTrade> {
  return decodePage(value, decodeAccountTrade);
}

/** `GET /data/orders`. */
export function decodeAccountOrdersPage(value: unknown): Page<AccountOrder> {
  return decodePage(value, decodeAccountOrder);
}
