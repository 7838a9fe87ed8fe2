/**
 * The venue's error strings, exactly as PROTOCOL.md ("Orders") lists them. The matching engine
 * puts one of these in `errorMsg` when it refuses an order; the sandbox passes them through.
 */

export const ERR_PRICE_TICK = 'order is invalid. Price breaks minimum tick size rules';
export const ERR_SIZE_MINIMUM = 'order is invalid. Size lower than the minimum';
export const ERR_DUPLICATED = 'order is invalid. Duplicated.';
export const ERR_MARKET_NOT_READY = 'the market is not yet ready to process new orders';
export const ERR_BALANCE = 'not enough balance / allowance';
export const ERR_POST_ONLY_CROSSES = 'invalid post-only order: order crosses book';
export const ERR_FOK_UNFILLED = "order couldn't be fully filled. FOK orders are fully filled or killed.";
export const ERR_FAK_NO_MATCH =
  'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.';
/**
 * Anything else wrong with the order itself: unknown token, size off the 0.01-share lot,
 * `postOnly` on FOK/FAK, a GTD order without a future expiration, a malformed field.
 */
export const ERR_INVALID_PAYLOAD = 'Invalid order payload';

/** `not_canceled` reasons of the cancel family. */
export const CANCEL_NOT_FOUND = 'order not found or already canceled';
/** As the venue words it (fixtures/venue/cancel_orders.json). */
export const CANCEL_ALREADY_MATCHED = 'Order already matched';
