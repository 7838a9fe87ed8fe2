import { formatMicros } from '../../core/fixed.ts';
import type { OrderState, Trade } from '../../sim/types.ts';
import type { TradeStatus } from '../../venue/domain/statuses.ts';
import { toAccountTrade } from '../trading/account-wire.ts';
import type { World } from '../world/world.ts';

/** What an `order` message says happened to the order (the venue's `type`). */
export type UserOrderEventType = 'PLACEMENT' | 'UPDATE' | 'CANCELLATION';

const unixSeconds = (ms: number): string => String(Math.floor(ms / 1000));

/**
 * The user channel's `order` message, in the venue's shape (the docs' and the captured ones of
 * test fixtures ws_user_order_*.json): decimal strings, `created_at` in unix seconds, `timestamp`
 * in ms (the instant of the change), the bare status (`LIVE`, `MATCHED`, `CANCELED`), and
 * `size_matched` as of this change. Both sandbox profiles send this shape.
 */
export function userOrderMessage(world: World, order: OrderState, type: UserOrderEventType, sizeMatched: number, ts: number): Record<string, unknown> {
  const status = type === 'CANCELLATION' ? 'CANCELED' : order.status;
  return {
    event_type: 'order',
    type,
    id: order.id,
    owner: order.owner,
    order_owner: order.owner,
    market: order.conditionId,
    asset_id: order.tokenId,
    side: order.side,
    original_size: formatMicros(order.originalSize),
    size_matched: formatMicros(sizeMatched),
    price: formatMicros(order.price),
    associate_trades: order.associateTrades.length === 0 ? null : [...order.associateTrades],
    outcome: world.token(order.tokenId)?.outcome ?? '',
    created_at: unixSeconds(order.createdAt),
    expiration: order.expiration === undefined ? '0' : unixSeconds(order.expiration),
    order_type: order.type,
    status,
    maker_address: order.address,
    timestamp: String(ts),
  };
}

/**
 * The user channel's `trade` message for one party (`apiKey`): the account-trade fields as the
 * venue's profile lists them (`trader_side` TAKER or MAKER, every maker entry), with the bare
 * settlement status (MATCHED, MINED, CONFIRMED, RETRYING, FAILED), `match_time` in unix seconds,
 * `last_update` and `timestamp` at this status (seconds, ms), `event_type: "trade"`, `type: "TRADE"`
 * and `trade_owner`. The same trade id is sent again at each status.
 */
export function userTradeMessage(world: World, trade: Trade, apiKey: string, status: TradeStatus, ts: number): Record<string, unknown> {
  const base = toAccountTrade(world, 'polymarket', trade, apiKey, status) as Record<string, unknown>;
  return {
    ...base,
    event_type: 'trade',
    type: 'TRADE',
    status,
    last_update: unixSeconds(ts),
    trade_owner: trade.owner,
    timestamp: String(ts),
  };
}
