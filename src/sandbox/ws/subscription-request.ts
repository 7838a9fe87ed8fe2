import type { TokenId } from '../../core/types.ts';

/** What a client's text message asks of the market channel (PROTOCOL "Market data"). */
export interface SubscriptionRequest {
  readonly assets: readonly TokenId[];
  readonly unsubscribe: boolean;
  readonly custom: boolean | undefined;
}

/** A subscription or unsubscription message, or undefined for anything else (ignored, as the venue does). */
export function parseSubscription(text: string): SubscriptionRequest | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const m = message as Record<string, unknown>;
  const ids = m['assets_ids'];
  if (!Array.isArray(ids)) return undefined;
  const custom = m['custom_feature_enabled'];
  return {
    assets: ids.filter((id): id is string => typeof id === 'string'),
    unsubscribe: m['operation'] === 'unsubscribe',
    custom: typeof custom === 'boolean' ? custom : undefined,
  };
}
