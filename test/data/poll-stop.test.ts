import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveClock } from '../../src/core/clock.ts';
import type { Observable } from 'rxjs';
import { pollFeeRates } from '../../src/data/fee-rate-poll.ts';
import { pollMarketStatus } from '../../src/data/market-status-poll.ts';
import { pollMarkets } from '../../src/data/poll-source.ts';
import { venueBookFeed } from '../../src/data/venue-book-feed.ts';
import { getFeeRate } from '../../src/venue/actions/get-fee-rate.ts';
import { getTradingMarket } from '../../src/venue/actions/get-trading-market.ts';
import { createVenueClient, type VenueClient } from '../../src/venue/client.ts';

/**
 * The pollers' requests end with them (the books and prices poller, the fee-rate and the market
 * status polls): unsubscribing aborts a `POST /books` in flight, so nothing
 * of it (no retry) reaches the venue after the run stopped. It did not: a request in flight at the
 * stop was retried after the venue (the embedded sandbox) had closed, and the run's log went on
 * with "venue request failed, retrying ... ECONNREFUSED" lines after its "run stopped".
 */

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((r) => server!.close(r));
  server = undefined;
});

/** A venue that holds every request unanswered; resolves the poll's first request once it arrived. */
interface Held {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
}
async function heldVenue(): Promise<{ venue: VenueClient; first: Promise<Held>; held: Held[] }> {
  const held: Held[] = [];
  let arrived: ((r: Held) => void) | undefined;
  const first = new Promise<Held>((resolve) => (arrived = resolve));
  server = createServer((req, res) => {
    held.push({ req, res });
    arrived?.({ req, res });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // the attempt's own deadline is 10 minutes: only the abort closes it within the test's limit
  return { venue: createVenueClient({ baseUrl: url, clock: new LiveClock(), retries: 3, timeoutMs: 600_000 }), first, held };
}

/** Subscribes, waits for the first request, unsubscribes: the client must hang up on it (aborted, not left to be answered and retried), and no error is reported. */
async function expectAbortedAtStop(poll$: Observable<unknown>, first: Promise<Held>, path: RegExp, errors: unknown[]): Promise<void> {
  const sub = poll$.subscribe();
  const { req, res } = await first;
  expect(req.url).toMatch(path);
  const closed = once(req.socket, 'close');
  sub.unsubscribe();
  await closed;
  expect(res.writableEnded).toBe(false);
  expect(errors).toEqual([]);
}

describe('the market status and fee-rate polls stopped', () => {
  it('pollMarketStatus aborts the market read in flight when unsubscribed, and reports nothing', async () => {
    const { venue, first, held } = await heldVenue();
    const errors: unknown[] = [];
    const poll$ = pollMarketStatus({
      clock: venue.clock,
      fetch: async (conditionId, signal) => ({ closed: (await getTradingMarket(venue, conditionId, { signal })).closed, tokens: [] }),
      markets: () => [{ conditionId: '0x' + 'a'.repeat(64), tokenIds: ['1', '2'] }],
      intervalMs: 60_000,
      onError: (err) => errors.push(err),
    });
    await expectAbortedAtStop(poll$, first, /0xa{64}/, errors);
    expect(held).toHaveLength(1);
  });

  it('pollFeeRates aborts the fee-rate read in flight when unsubscribed, and reports nothing', async () => {
    const { venue, first, held } = await heldVenue();
    const errors: unknown[] = [];
    const poll$ = pollFeeRates({
      clock: venue.clock,
      fetch: (tokenId, signal) => getFeeRate(venue, tokenId, { signal }),
      markets: () => [{ conditionId: '0x' + 'b'.repeat(64), tokenIds: ['1', '2'], takerBps: 0 }],
      intervalMs: 10,
      onError: (err) => errors.push(err),
    });
    await expectAbortedAtStop(poll$, first, /token_id=1/, errors);
    expect(held).toHaveLength(1);
  });
});

describe('pollMarkets stopped', () => {
  it('aborts the books request in flight when unsubscribed', async () => {
    const held: { req: IncomingMessage; res: ServerResponse }[] = [];
    let arrived: (() => void) | undefined;
    server = createServer((req, res) => {
      held.push({ req, res });
      arrived?.();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const venue = createVenueClient({ baseUrl: url, clock: new LiveClock(), retries: 3, timeoutMs: 600_000 });

    const first = new Promise<void>((resolve) => (arrived = resolve));
    const sub = pollMarkets({ clock: venue.clock, feed: venueBookFeed(venue), tokenIds: ['1'], pollIntervalMs: 100, concurrency: 1 }).subscribe();
    await first;
    const { req, res } = held[0]!;
    expect(req.url).toBe('/books');
    const closed = once(req.socket, 'close');
    sub.unsubscribe();
    // the client hung up on the held request: it was aborted, not left to be answered and retried
    // (the attempt's own deadline is 10 minutes: only the abort closes it within the test's limit)
    await closed;
    expect(res.writableEnded).toBe(false);
    expect(held).toHaveLength(1);
  });
});
