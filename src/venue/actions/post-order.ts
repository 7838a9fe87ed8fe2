import { ParameterError } from '../../core/errors.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeOrderPostResult, parseJsonText } from '../decode.ts';
import type { OrderPostResult } from '../domain/account.ts';
import { submissionJson } from '../signing/order-json.ts';
import type { SignedOrder } from '../signing/order-signer.ts';
import { postFailure } from './post-outcome.ts';

export interface PostOrderParams {
  /** The caller's API key (`owner`). */
  readonly owner: string;
  readonly order: SignedOrder;
  readonly deferExec?: boolean;
}

/**
 * `POST /order`: one signed order (PROTOCOL 4.9 shapes). Needs an L2-authenticated client.
 * Never retried; an unknown outcome is an OutcomeUnknownError carrying the order's hash.
 */
export async function postOrder(client: VenueClient, params: PostOrderParams, options: CallOptions = {}): Promise<OrderPostResult> {
  if (params.owner === '') throw new ParameterError('postOrder', 'owner', 'is required (the API key)');
  const bodyText = submissionJson(params.order, JSON.stringify(params.owner), params.deferExec);
  let answered = false;
  try {
    const response = await client.send({ route: 'postOrder', bodyText, ...options });
    answered = true;
    return decodeOrderPostResult(parseJsonText(response.text, 'POST /order'));
  } catch (err) {
    throw postFailure(err, 'POST /order', [params.order.orderHash], answered);
  }
}
