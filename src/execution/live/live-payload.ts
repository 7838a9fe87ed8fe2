import type { SignedOrder } from '../../venue/signing/order-signer.ts';

/**
 * What the live edge keeps in `PreparedOrder.payload`: the signed order, or why the order could
 * not be built (price off the tick, no market rules, ...). An unbuilt order is never sent; its
 * id is `UNBUILT_PREFIX + clientOrderId`, which no venue order id can equal.
 */
export type LivePayload =
  | { readonly kind: 'signed'; readonly signed: SignedOrder }
  | { readonly kind: 'unbuilt'; readonly reason: string };

export const UNBUILT_PREFIX = 'unbuilt:';

export function isLivePayload(value: unknown): value is LivePayload {
  if (value === null || typeof value !== 'object') return false;
  const kind = (value as { kind?: unknown }).kind;
  return kind === 'signed' || kind === 'unbuilt';
}
