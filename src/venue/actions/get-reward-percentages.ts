import { DecodeError } from '../../core/errors.ts';
import type { ConditionId } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface RewardPercentagesParams {
  /** Which wallet of the key (0 the key's own address, the default; 1 proxy, 2 safe, 3 deposit wallet). */
  readonly signatureType?: number;
  /** Or the wallet itself (one of the key's). */
  readonly makerAddress?: string;
}

/**
 * `GET /rewards/user/percentages` (the venue's route; docs/rewards.md): the real-time share of
 * each market's liquidity rewards our wallet is earning, percent (0 to 100) by condition id. A
 * market where the wallet earns nothing may be absent. Needs an L2-authenticated client; one
 * request answers every market.
 */
export async function getRewardPercentages(client: VenueClient, params: RewardPercentagesParams = {}, options: CallOptions = {}): Promise<Map<ConditionId, number>> {
  const { value } = await requestJson(client, {
    route: 'getRewardPercentages',
    query: toQuery({ signature_type: params.signatureType, maker_address: params.makerAddress }),
    ...options,
  });
  return decodeRewardPercentages(value);
}

/** The route's body: a JSON object of condition id → a percent from 0 to 100. */
export function decodeRewardPercentages(value: unknown): Map<ConditionId, number> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new DecodeError('rewards.user.percentages', 'an object of condition id to percent', value);
  const out = new Map<ConditionId, number>();
  for (const [key, percent] of Object.entries(value as Record<string, unknown>)) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new DecodeError('rewards.user.percentages', 'condition ids (0x and 64 hex digits) as keys', key);
    if (typeof percent !== 'number' || !Number.isFinite(percent) || percent < 0 || percent > 100) throw new DecodeError(`rewards.user.percentages.${key}`, 'a percent from 0 to 100', percent);
    out.set(key, percent);
  }
  return out;
}
