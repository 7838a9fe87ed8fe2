import { formatMicros } from '../../core/fixed.ts';
import type { OrderState, Trade } from '../../sim/types.ts';
import type { WireAccountTrade, WireMakerOrder } from '../../venue/wire/account.ts';
import type { SandboxProfile } from '../profile.ts';
import { isoTime } from '../world/ids.ts';
import type { World } from '../world/world.ts';
import type { TradeStatus } from '../../venue/domain/statuses.ts';
import { ZERO_BYTES32 } from '../../venue/signing/eip712.ts';
import { transactionHashOf } from './transaction-hash.ts';

/**
 * Engine orders and trades in the account-data wire shapes (2.14, 2.15), per profile.
 *
 * Orders: the interface's camelCase fields of 2.15 (`createdAt` ISO date-time, status `LIVE`) in
 * profile `interface`; the venue's snake_case (`created_at` unix seconds, `order_type`, status
 * `ORDER_STATUS_LIVE`, `expiration` always, "0" for none) in profile `polymarket`. Both carry
 * `metadata`, the order's bytes32. Sizes and prices are decimal strings.
 *
 * Trades: the snake_case fields of 2.14 in both profiles; `match_time`/`last_update` are ISO
 * date-times and the caller's role is `type` in `interface`, unix-second strings and
 * `trader_side` (status `TRADE_STATUS_MATCHED`) in `polymarket`. The taker's token, side, price
 * and size describe the trade; `maker_orders` lists every maker filled in it.
 */

function outcomeOf(world: World, tokenId: string): string {
  return world.token(tokenId)?.outcome ?? '';
}

const unixSeconds = (ms: number): number => Math.floor(ms / 1000);

export function toAccountOrder(world: World, profile: SandboxProfile, o: OrderState): Record<string, unknown> {
  const associate = [...o.associateTrades];
  const metadata = o.clientMetadata ?? ZERO_BYTES32;
  if (profile === 'polymarket') {
    return {
      id: o.id,
      status: `ORDER_STATUS_${o.status}`,
      owner: o.owner,
      maker_address: o.address,
      market: o.conditionId,
      asset_id: o.tokenId,
      side: o.side,
      original_size: formatMicros(o.originalSize),
      size_matched: formatMicros(o.sizeMatched),
      price: formatMicros(o.price),
      outcome: outcomeOf(world, o.tokenId),
      expiration: o.expiration === undefined ? '0' : String(unixSeconds(o.expiration)),
      order_type: o.type,
      associate_trades: associate,
      created_at: unixSeconds(o.createdAt),
      metadata,
    };
  }
  const out: Record<string, unknown> = {
    associateTrades: associate,
    id: o.id,
    status: o.status,
    market: o.conditionId,
    originalSize: formatMicros(o.originalSize),
    outcome: outcomeOf(world, o.tokenId),
    makerAddress: o.address,
    owner: o.owner,
    price: formatMicros(o.price),
    side: o.side,
    sizeMatched: formatMicros(o.sizeMatched),
    assetId: o.tokenId,
    type: o.type,
    createdAt: isoTime(o.createdAt),
    metadata,
  };
  if (o.expiration !== undefined) out['expiration'] = String(unixSeconds(o.expiration));
  return out;
}

/**
 * A trade as `apiKey` sees it: its role is TAKER when it owns the taker order, else MAKER;
 * `status` is its settlement status now (the engine's `tradeStatus`), MATCHED as matched.
 */
export function toAccountTrade(world: World, profile: SandboxProfile, t: Trade, apiKey: string, status: TradeStatus = t.status): WireAccountTrade | Record<string, unknown> {
  const makers: WireMakerOrder[] = t.makerOrders.map((m) => ({
    order_id: m.orderId,
    maker_address: m.address,
    owner: m.owner,
    matched_amount: formatMicros(m.matchedAmount),
    fee_rate_bps: String(m.feeRateBps),
    price: formatMicros(m.price),
    asset_id: m.tokenId,
    outcome: outcomeOf(world, m.tokenId),
    side: m.side,
  }));
  const role = t.owner === apiKey ? 'TAKER' : 'MAKER';
  const time = profile === 'polymarket' ? String(unixSeconds(t.matchTime)) : isoTime(t.matchTime);
  const base = {
    id: t.id,
    taker_order_id: t.takerOrderId,
    market: t.conditionId,
    asset_id: t.tokenId,
    side: t.side,
    size: formatMicros(t.size),
    fee_rate_bps: String(t.feeRateBps),
    price: formatMicros(t.price),
    status: profile === 'polymarket' ? `TRADE_STATUS_${status}` : status,
    match_time: time,
    last_update: time,
    outcome: outcomeOf(world, t.tokenId),
    bucket_index: 0,
    owner: t.owner,
    maker_address: t.address,
    transaction_hash: transactionHashOf(t),
  };
  if (profile === 'polymarket') return { ...base, trader_side: role, maker_orders: makers };
  return { ...base, type: role, maker_orders: makers } satisfies WireAccountTrade;
}
