/**
 * The venue's order and trade statuses as closed unions (PROTOCOL "Statuses"). The decoder
 * (src/venue/decode.ts) turns the wire spellings of both profiles (`LIVE`, `ORDER_STATUS_LIVE`,
 * `TRADE_STATUS_CONFIRMED`, any case) into these once; past it nothing reads a status string.
 */

import { SETTLEMENT_STATUSES, type SettlementStatus } from '../../core/events.ts';

/** Every status of an order at the venue. */
export const VENUE_ORDER_STATUSES = ['LIVE', 'MATCHED', 'CANCELED', 'DELAYED', 'UNMATCHED'] as const;
export type VenueOrderStatus = (typeof VENUE_ORDER_STATUSES)[number];

/** Every status of a trade (a fill); a fill is provisional until `CONFIRMED`, void when `FAILED`: the settlement statuses of src/core/events.ts. */
export const TRADE_STATUSES = SETTLEMENT_STATUSES;
export type TradeStatus = SettlementStatus;
