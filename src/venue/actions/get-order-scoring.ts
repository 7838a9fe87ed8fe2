import { DecodeError } from '../../core/errors.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { requestJson } from '../request.ts';

/**
 * `GET /order-scoring?order_id=` (the venue's route; docs/rewards.md): whether one of our orders
 * scores for liquidity rewards now. Needs an L2-authenticated client; profile `polymarket`.
 */
export async function getOrderScoring(client: VenueClient, orderId: string, options: CallOptions = {}): Promise<boolean> {
  const { value } = await requestJson(client, { route: 'getOrderScoring', query: { order_id: orderId }, ...options });
  const scoring = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['scoring'] : undefined;
  if (typeof scoring !== 'boolean') throw new DecodeError('order-scoring.scoring', 'a boolean', scoring);
  return scoring;
}
