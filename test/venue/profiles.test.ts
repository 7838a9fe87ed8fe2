import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.ts';
import { createVenueClient } from '../../src/venue/client.ts';
import { isVenueProfile, VENUE_PROFILES } from '../../src/venue/domain/profiles.ts';

describe('the wire profiles: one list (src/venue/domain/profiles.ts)', () => {
  it('names both profiles and recognises only them', () => {
    expect(VENUE_PROFILES).toEqual(['interface', 'polymarket']);
    for (const p of VENUE_PROFILES) expect(isVenueProfile(p)).toBe(true);
    for (const p of ['Polymarket', 'service', '', undefined, 1]) expect(isVenueProfile(p)).toBe(false);
  });

  it('the venue client refuses another profile with the list in its error', () => {
    const make = () => createVenueClient({ baseUrl: 'http://127.0.0.1:1', profile: 'poly' as never });
    expect(make).toThrow(ConfigError);
    expect(make).toThrow("venue.profile: must be 'interface' or 'polymarket', was 'poly'");
  });
});
