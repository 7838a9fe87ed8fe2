import { ParameterError } from '../../core/errors.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { MAX_ORDERS_PER_BATCH } from '../endpoints.ts';
import { decodeOrderPostResults, parseJsonText } from '../decode.ts';
import type { OrderPostResult } from '../domain/account.ts';
import { requestCost } from '../rate-limits.ts';
import { submissionJson } from '../signing/order-json.ts';
import type { SignedOrder } from '../signing/order-signer.ts';
import { postFailure } from './post-outcome.ts';

export interface PostOrdersParams {
  /** The caller's API key: every item's `owner`. */
  readonly owner: string;
  /** Signed orders (their hashes are the order ids the venue will return). */
  readonly orders: readonly SignedOrder[];
  /** Sets `deferExec` on every item when given. */
  readonly deferExec?: boolean;
}

/**
 * `POST /orders`: 1 to 15 signed orders in one request; one result per order, in order. 0 or
 * more than 15 orders is a ParameterError and nothing is sent. Needs an L2-authenticated client
 * (`withL2Auth`). Never retried: when the outcome is unknown (see post-outcome.ts) the error is
 * an OutcomeUnknownError carrying the orders' hashes. Costs one per order against the order
 * budgets.
 */
export async function postOrders(client: VenueClient, params: PostOrdersParams, options: CallOptions = {}): Promise<OrderPostResult[]> {
  const n = params.orders.length;
  if (n === 0 || n > MAX_ORDERS_PER_BATCH) {
    throw new ParameterError('postOrders', 'orders', `must hold 1 to ${MAX_ORDERS_PER_BATCH} orders, was ${n}`);
  }
  if (params.owner === '') throw new ParameterError('postOrders', 'owner', 'is required (the API key)');
  // the body text is written here (order-json.ts), the same text JSON.stringify gives
  const ownerJson = JSON.stringify(params.owner);
  let bodyText = '[';
  const hashes: string[] = [];
  for (const signed of params.orders) {
    if (hashes.length > 0) bodyText += ',';
    bodyText += submissionJson(signed, ownerJson, params.deferExec);
    hashes.push(signed.orderHash);
  }
  bodyText += ']';
  let answered = false;
  try {
    const response = await client.send({ route: 'postOrders', bodyText, cost: requestCost('postOrders', n), ...options });
    answered = true;
    return decodeOrderPostResults(parseJsonText(response.text, 'POST /orders'), n);
  } catch (err) {
    throw postFailure(err, 'POST /orders', hashes, answered);
  }
}
