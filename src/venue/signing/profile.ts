import type { VenueProfile } from '../domain/profiles.ts';

/** Signing reads the wire profile (src/venue/domain/profiles.ts) for header names, the L2 signature encoding and the order JSON shape. */
export type { VenueProfile };

/** Prefix of the auth header names: `SERVICE_ADDRESS` or `POLY_ADDRESS`. */
export function authHeaderPrefix(profile: VenueProfile): 'SERVICE' | 'POLY' {
  return profile === 'polymarket' ? 'POLY' : 'SERVICE';
}
