import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { RateLimitError } from '../../src/core/errors.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { getOk } from '../../src/venue/actions/get-ok.ts';
import { createVenueClient } from '../../src/venue/client.ts';
import type { RateLimitConfig } from '../../src/venue/rate-limits.ts';
import { resetStats, stats } from './sandbox-admin.ts';

/**
 * The client's budget keeps a burst under the venue's limit: 500 requests at `GET /` (part 8:
 * 50 per window), with every window scaled to 2% (10 s -> 200 ms) on both sides, draw no 429
 * from the sandbox, which enforces the same table.
 */
const LIMITS: RateLimitConfig = { windowScale: 0.02 };
const WINDOW_MS = 200;
let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({ seed: 3, markets: 5, events: 2, limits: LIMITS });
});
afterAll(async () => {
  await sb.close();
});

describe('rate budget against the sandbox', () => {
  it('without a budget the same burst is throttled (the sandbox does enforce the limit)', async () => {
    // a sandbox whose clock stands still: all 120 requests fall in one window whatever the
    // machine's load (on the live clock a slow burst spread over several windows drew no 429)
    const still = await startSandbox({ seed: 3, markets: 5, events: 2, limits: LIMITS, flow: { enabled: false }, clock: new SimulatedClock(Date.now()) });
    try {
      const bare = createVenueClient({ baseUrl: still.url, retries: 0, limits: { enabled: false } });
      const results = await Promise.allSettled(Array.from({ length: 120 }, () => getOk(bare)));
      const throttled = results.filter((r) => r.status === 'rejected' && r.reason instanceof RateLimitError);
      expect(throttled.length).toBeGreaterThan(0);
      // exactly the requests past the window's 50
      expect(throttled.length).toBe(120 - 50);
    } finally {
      await still.close();
    }
  });

  it('500 requests at a route limited to 50 per window: zero 429, and at least the span of 9 windows', async () => {
    await resetStats(sb.url);
    const client = createVenueClient({ baseUrl: sb.url, retries: 0, limits: LIMITS });
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 500 }, () => getOk(client)));
    const elapsedMs = Date.now() - started;
    expect(answers.every((a) => a === 'OK')).toBe(true);
    const seen = await stats(sb.url);
    expect(seen.routes.getOk).toBe(500);
    expect(seen.statuses['429']).toBeUndefined();
    expect(seen.statuses['200']).toBe(500);
    // 50 may go at once; each further 50 needs the window to slide: 9 more windows at least.
    expect(elapsedMs).toBeGreaterThanOrEqual(9 * WINDOW_MS);
  });
});
