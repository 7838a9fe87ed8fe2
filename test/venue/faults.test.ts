import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isRetryable, RateLimitError, TimeoutError, TransportError } from '../../src/core/errors.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { getOrderBooks } from '../../src/venue/actions/get-order-books.ts';
import { getOk } from '../../src/venue/actions/get-ok.ts';
import { getTags } from '../../src/venue/actions/get-tags.ts';
import { createVenueClient, type VenueClientOptions } from '../../src/venue/client.ts';
import { onArrivalClock } from './arrival-clock.ts';
import { resetStats, setFaults, stats } from './sandbox-admin.ts';

/** The transport against the sandbox's fault knobs, set through its loopback admin route. */
let sb: RunningSandbox;
let tokenIds: string[];

beforeAll(async () => {
  sb = await startSandbox({ seed: 9, markets: 20, events: 5 });
  tokenIds = sb.world.markets.slice(0, 5).flatMap((m) => m.tokens.map((t) => t.tokenId));
});
afterEach(async () => {
  await setFaults(sb.url, { latencyMs: 0, errorRate: 0, stallMs: 0, dropRate: 0, rateLimitStorm: false });
  await resetStats(sb.url);
});
afterAll(async () => {
  await sb.close();
});

const client = (extra: Partial<VenueClientOptions> = {}) =>
  createVenueClient({ baseUrl: sb.url, retries: 8, backoff: { baseMs: 2, maxMs: 10 }, timeoutMs: 2_000, ...extra });

describe('transport against sandbox faults', () => {
  it('reads ride out injected 500s (errorRate 0.5)', async () => {
    await setFaults(sb.url, { errorRate: 0.5 });
    const c = client();
    for (let i = 0; i < 20; i++) expect((await getOrderBooks(c, tokenIds)).length).toBe(tokenIds.length);
    const seen = await stats(sb.url);
    expect(seen.statuses['500']).toBeGreaterThan(0);
    expect(seen.statuses['200']).toBe(20);
  });

  it('a rate-limit storm is a RateLimitError with the Retry-After, and pauses the route', async () => {
    await setFaults(sb.url, { rateLimitStorm: true });
    const c = client({ retries: 0 });
    const err = await getTags(c).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(1_000);
    expect(c.budget.remaining('getTags')).toBe(0);
  });

  it('after a storm ends, the read retries after Retry-After and succeeds', async () => {
    await setFaults(sb.url, { rateLimitStorm: true });
    const sending = client().send({ route: 'getOk' });
    // the storm ends once the read has been answered 429 (ended on a timer, it could end before a
    // loaded machine had sent the read at all: then it is answered at once, never retried)
    while ((sb.context.stats.snapshot().routeStatuses.getOk?.['429'] ?? 0) === 0) await new Promise((r) => setImmediate(r));
    await setFaults(sb.url, { rateLimitStorm: false });
    const response = await sending;
    expect(response.attempts).toBeGreaterThanOrEqual(2);
    expect((await stats(sb.url)).statuses['429']).toBeGreaterThanOrEqual(1);
  });

  it('a stalled answer times a read out (retried, then a TimeoutError)', async () => {
    await setFaults(sb.url, { stallMs: 1_500 });
    const c = client({ timeoutMs: 150, retries: 1 });
    const before = sb.context.stats.of('getOk');
    // each attempt's 150 ms run from its arrival (the arrival clock), and its 1.5 s stall, begun
    // then on the same clock, cannot end first; the stalls end as the test ends
    const err = await onArrivalClock(() => getOk(c), { sent: () => c.transport.counters.attempts, arrived: () => sb.context.stats.of('getOk') - before }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TimeoutError);
    expect(c.transport.counters.attempts).toBe(2);
    expect((await stats(sb.url)).routes.getOk).toBe(2);
  });

  it('dropped connections are retried for reads, and surface as a TransportError when they persist', async () => {
    await setFaults(sb.url, { dropRate: 1 });
    const err = await getOk(client({ retries: 2 })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TransportError);
    expect(isRetryable(err)).toBe(true);
    expect((await stats(sb.url)).routes.getOk).toBe(3);
  });

  it('added latency below the deadline changes nothing', async () => {
    await setFaults(sb.url, { latencyMs: 50 });
    // a deadline far past the latency: a loaded machine can hold a loopback answer up for a
    // second or more, which would time the read out and retry it (not what this is about)
    const response = await client({ timeoutMs: 20_000 }).send({ route: 'getOk' });
    expect(response.attempts).toBe(1);
  });
});
