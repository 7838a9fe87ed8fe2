import { formatMicros } from '../core/fixed.ts';
import type { TokenId } from '../core/types.ts';
import type { CheckName, Denial, DenyCode, GateName } from './types.ts';

/** Builds a frozen denial. */
export function deny(code: DenyCode, check: CheckName | GateName, message: string): Denial {
  return Object.freeze({ code, check, message });
}

/** The denial of every check that needs the order's market when the token is not in `state.markets`. */
export function unknownMarket(check: CheckName, tokenId: TokenId): Denial {
  return deny('UNKNOWN_MARKET', check, `unknown market for token ${tokenId}`);
}

/** A Micros value for a message: "0.52"; a malformed one is shown raw ("NaN", "0.5 micros"). */
export function fmt(value: number): string {
  return Number.isSafeInteger(value) ? formatMicros(value) : Number.isFinite(value) ? `${value} micros` : String(value);
}
