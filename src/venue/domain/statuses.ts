/**
 * The venue's order and trade statuses as closed unions (PROTOCOL "Statuses"). The decoder
 * (src/venue/decode.ts) turns the wire spellings of both profiles (`LIVE`, `ORDER_STATUS_LIVE`,
 * `TRADE_STATUS_CONFIRMED`, any case) into these once; past it nothing reads a status string.
 */

/** Every status of an order at the venue. */
export const VENUE_ORDER_STATUSES = ['LIVE', 'MATCHED', 'CANCELED', 'DELAYED', 'UNMATCHED'] as const;
export type VenueOrderStatus = (typeof VENUE_ORDER_STATUSES)[number];

/** Every status of a trade (a fill); a fill is provisional until `CONFIRMED`, void when `FAILED`. */
export const TRADE_STATUSES = ['MATCHED', 'MINED', 'CONFIRMED', 'RETRYING', 'FAILED'] as const;
export type TradeStatus = (typeof TRADE_STATUSES)[number];
