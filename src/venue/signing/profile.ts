/**
 * The wire profile (PROTOCOL "Profiles"): `interface` follows the interface document,
 * `polymarket` the venue it describes. Signing reads it for header names, the L2 signature
 * encoding and the order JSON shape.
 */
export type VenueProfile = 'interface' | 'polymarket';

/** Prefix of the auth header names: `SERVICE_ADDRESS` or `POLY_ADDRESS`. */
export function authHeaderPrefix(profile: VenueProfile): 'SERVICE' | 'POLY' {
  return profile === 'polymarket' ? 'POLY' : 'SERVICE';
}
