import { VENUE_PROFILES, type VenueProfile } from '../venue/domain/profiles.ts';
import type { SandboxToken } from './world/model.ts';

/**
 * The wire profile (PROTOCOL "Profiles"): `interface` follows the interface document,
 * `polymarket` the venue it describes. Read routes differ only in how wallet analytics name an
 * asset; the trading step branches on the auth header prefix, the L2 signature encoding, the
 * order JSON and the end cursor of `/data/orders`.
 */
export type SandboxProfile = VenueProfile;

export const SANDBOX_PROFILES: readonly SandboxProfile[] = VENUE_PROFILES;

/** Names of the five L2 headers, lower-cased as Node presents them. */
export interface AuthHeaderNames {
  readonly address: string;
  readonly apiKey: string;
  readonly passphrase: string;
  readonly timestamp: string;
  readonly signature: string;
}

export function authHeaderNames(profile: SandboxProfile): AuthHeaderNames {
  const p = profile === 'polymarket' ? 'poly_' : 'service_';
  return {
    address: `${p}address`,
    apiKey: `${p}api_key`,
    passphrase: `${p}passphrase`,
    timestamp: `${p}timestamp`,
    signature: `${p}signature`,
  };
}

/** Names of the four L1 headers (`POST /auth/api-key`, `GET /auth/derive-api-key`), lower-cased. */
export interface L1HeaderNames {
  readonly address: string;
  readonly signature: string;
  readonly timestamp: string;
  readonly nonce: string;
}

export function l1HeaderNames(profile: SandboxProfile): L1HeaderNames {
  const p = profile === 'polymarket' ? 'poly_' : 'service_';
  return { address: `${p}address`, signature: `${p}signature`, timestamp: `${p}timestamp`, nonce: `${p}nonce` };
}

/**
 * The `asset` of the wallet-analytics answers: `<condition_id>:<outcome_index>` in the interface
 * (2.2, 2.5), the token id on the venue (its captured payloads).
 */
export function analyticsAsset(profile: SandboxProfile, token: SandboxToken): string {
  return profile === 'polymarket' ? token.tokenId : `${token.market.conditionId}:${token.outcomeIndex}`;
}
