import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveClock } from '../../src/core/clock.ts';
import { pollMarkets } from '../../src/data/poll-source.ts';
import { venueBookFeed } from '../../src/data/venue-book-feed.ts';
import { createVenueClient } from '../../src/venue/client.ts';

/**
 * The poller's requests end with it: unsubscribing aborts a `POST /books` in flight, so nothing
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
