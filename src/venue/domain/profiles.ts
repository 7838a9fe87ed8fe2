/**
 * The wire profiles (PROTOCOL "Profiles") as a closed union: `interface` follows the interface
 * document, `polymarket` the venue it describes. The config schema, the CLI's `--profile` choices,
 * the venue client, signing and the sandbox all read this list.
 */

/** Every wire profile. */
export const VENUE_PROFILES = ['interface', 'polymarket'] as const;
export type VenueProfile = (typeof VENUE_PROFILES)[number];

export function isVenueProfile(value: unknown): value is VenueProfile {
  return (VENUE_PROFILES as readonly unknown[]).includes(value);
}
