import { MAX_ORDERS_PER_BATCH } from '../../venue/endpoints.ts';

/**
 * The sandbox's own `errorMsg` / `error` strings beyond the engine's (src/sim/venue-messages.ts).
 * The owner and signer strings are the venue's own wording (seen in its 400 answers); the rest
 * are ours.
 */

/** The order's signature does not recover to its `signer`. */
export const ERR_BAD_SIGNATURE = 'invalid signature';
/**
 * The order's signer does not control its `maker` with its signature type (trading/wallets.ts):
 * the exchange contract would refuse the signature, so the wording starts as the venue's does.
 */
export const ERR_MAKER_NOT_CONTROLLED = 'invalid signature: the signer does not control the maker wallet for this signature type';
/** The item's `owner` is not the API key the request was authenticated with. */
export const ERR_OWNER_NOT_API_KEY = 'the order owner has to be the owner of the API KEY';
/** The order's `signer` is not the address the API key belongs to. */
export const ERR_SIGNER_NOT_API_KEY = 'the order signer address has to be the address of the API KEY';

/** 503 answers of the trading modes (the post-only text is the venue's). */
export const POST_ONLY_MODE_MESSAGE = 'post-only mode: only post-only orders and cancels are allowed';
export const CANCEL_ONLY_MODE_MESSAGE = 'cancel-only mode: only cancels are allowed';
/** The venue's own 503 text of its cancel-only mode (its error-codes page), in the polymarket profile. */
export const VENUE_CANCEL_ONLY_MESSAGE = 'Trading is currently cancel-only. New orders are not accepted, but cancels are allowed.';
/** The 425 of an order route while a staged restart runs (the venue's restarts answer 425 Too Early). */
export const RESTARTING_MESSAGE = 'the matching engine is restarting; retry later';

/** The 400 of a heartbeat with the wrong id. */
export const ERR_HEARTBEAT_ID = 'Invalid Heartbeat ID';

/** Most ids in one `DELETE /orders`. */
export const MAX_CANCELS_PER_REQUEST = 1000;

export function tooManyOrdersMessage(n: number): string {
  return `Too many orders in payload: ${n}, max allowed: ${MAX_ORDERS_PER_BATCH}`;
}
