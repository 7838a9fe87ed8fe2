import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  DecodeError,
  isOutcomeUnknown,
  isRetryable,
  RateLimitError,
  TimeoutError,
  TransportError,
  VenueRejectError,
} from '../../src/core/errors.ts';
import { getOk } from '../../src/venue/actions/get-ok.ts';
import { getOrderBooks } from '../../src/venue/actions/get-order-books.ts';
import { getTags } from '../../src/venue/actions/get-tags.ts';
import { getTrades } from '../../src/venue/actions/get-trades.ts';
import { getVersion } from '../../src/venue/actions/get-version.ts';
import { createVenueClient, type VenueClientOptions } from '../../src/venue/client.ts';
import { SimulatedClock } from '../../src/core/clock.ts';
import type { VenueLogger } from '../../src/venue/logger.ts';
import { onArrivalClock } from './arrival-clock.ts';
import { closedPort, sendJson, sendText, startLoopback, type Loopback } from './loopback-server.ts';

const servers: Loopback[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Parameters<typeof startLoopback>[0]): Promise<Loopback> {
  const server = await startLoopback(handler);
  servers.push(server);
  return server;
}

function client(url: string, extra: Partial<VenueClientOptions> = {}) {
  return createVenueClient({ baseUrl: url, retries: 3, backoff: { baseMs: 5, maxMs: 20 }, timeoutMs: 2_000, ...extra });
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A harmless `POST /orders` body. */
const ORDERS = [{ order: { salt: '1' }, orderType: 'GTC', owner: 'k' }];

/** Sends one `POST /orders` (a write: not idempotent) with a harmless body. */
function postOrders(url: string, extra: Partial<VenueClientOptions> = {}) {
  return client(url, extra).send({ route: 'postOrders', body: ORDERS });
}

/** The attempts a client made against what its loopback server received (onArrivalClock). */
function arrivals(venue: ReturnType<typeof client>, server: Loopback) {
  return { sent: () => venue.transport.counters.attempts, arrived: () => server.requests.length };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('transport: reads retry', () => {
  it('retries injected 500s with backoff and returns the answer', async () => {
    const server = await serve((_req, res, n) => (n <= 2 ? sendJson(res, 500, { error: 'boom' }) : sendJson(res, 200, 'OK')));
    const response = await client(server.url).send({ route: 'getOk' });
    expect(response.attempts).toBe(3);
    expect(response.text).toBe('"OK"');
    expect(server.requests).toHaveLength(3);
  });

  it('waits for backoff on the injected clock, and logs each retry', async () => {
    const server = await serve((_req, res, n) => (n === 1 ? sendJson(res, 503, { error: 'busy' }) : sendJson(res, 200, 'OK')));
    const clock = new SimulatedClock(Date.now());
    const lines: { msg: string | undefined; obj: object }[] = [];
    const note = (obj: object, msg?: string): void => void lines.push({ obj, msg });
    const logger: VenueLogger = { debug: note, info: note, warn: note, error: note };
    const pending = getOk(client(server.url, { clock, logger, backoff: { baseMs: 1_000, maxMs: 1_000 } }));
    await wait(200);
    expect(server.requests).toHaveLength(1); // virtual time has not moved: no retry yet
    clock.advanceBy(1_000);
    expect(await pending).toBe('OK');
    expect(server.requests).toHaveLength(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.obj).toMatchObject({ route: 'getOk', attempt: 1 });
  });

  it('gives up after its retries with the venue status and error string', async () => {
    const server = await serve((_req, res) => sendJson(res, 502, { error: 'bad gateway' }));
    const err = await rejection(getOk(client(server.url, { retries: 2 })));
    expect(err).toBeInstanceOf(VenueRejectError);
    expect(err).toMatchObject({ status: 502, venueMessage: 'bad gateway', route: 'getOk', body: { error: 'bad gateway' } });
    expect(server.requests).toHaveLength(3);
  });

  it('honours 429 Retry-After in seconds', async () => {
    const server = await serve((_req, res, n) =>
      n === 1 ? sendJson(res, 429, { error: 'too many requests' }, { 'retry-after': '1' }) : sendJson(res, 200, { version: 2 }),
    );
    expect(await getVersion(client(server.url))).toBe(2);
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(995);
  });

  it('honours 429 Retry-After as an HTTP date', async () => {
    let retryAt = 0;
    const server = await serve((_req, res, n) => {
      if (n > 1) return sendJson(res, 200, 'OK');
      const header = new Date(Date.now() + 2_000).toUTCString(); // whole seconds: 1-2 s from now
      retryAt = Date.parse(header);
      return sendJson(res, 429, { error: 'slow down' }, { 'retry-after': header });
    });
    expect(await getOk(client(server.url))).toBe('OK');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at).toBeGreaterThanOrEqual(retryAt - 5);
  });

  it('pauses the route budget after a 429 and reports a RateLimitError when retries run out', async () => {
    const server = await serve((_req, res) => sendJson(res, 429, { error: 'throttled' }, { 'retry-after': '30' }));
    const c = client(server.url, { retries: 0 });
    const err = await rejection(getOk(c));
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(30_000);
    expect(c.budget.remaining('getOk')).toBe(0);
    expect(Object.keys(c.budget.snapshot().pausedUntil)).toEqual(['getOk']);
  });

  it('does not wait for a Retry-After beyond maxRetryAfterMs', async () => {
    const server = await serve((_req, res) => sendJson(res, 503, { error: 'paused' }, { 'retry-after': '120' }));
    const err = await rejection(getOk(client(server.url, { maxRetryAfterMs: 1_000 })));
    expect(err).toMatchObject({ status: 503, retryAfterMs: 120_000 });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a read that timed out', async () => {
    const server = await serve((_req, res, n) => {
      if (n === 1) return; // never answered: the client's deadline fires
      sendJson(res, 200, 'OK');
    });
    // the deadlines run from each attempt's arrival (on real time, a first attempt held up past
    // its deadline was never sent, and a retry's answer held up past it timed the retry out too)
    const venue = client(server.url, { timeoutMs: 1_000 });
    const response = await onArrivalClock(() => venue.send({ route: 'getOk' }), arrivals(venue, server));
    expect(response.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it('a read that keeps timing out ends in a TimeoutError', async () => {
    const server = await serve(() => undefined);
    const venue = client(server.url, { timeoutMs: 100, retries: 1 });
    // each attempt's deadline runs from its arrival (on real time, one held up past it was never sent)
    const err = await rejection(onArrivalClock(() => getOk(venue), arrivals(venue, server)));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(isRetryable(err)).toBe(true);
    expect(venue.transport.counters.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 4xx other than 429', async () => {
    const server = await serve((_req, res) => sendJson(res, 400, { error: "parameter 'limit' must be <= 1000" }));
    const err = await rejection(getTags(client(server.url), { limit: 5 }));
    expect(err).toMatchObject({ status: 400, venueMessage: "parameter 'limit' must be <= 1000" });
    expect(server.requests).toHaveLength(1);
  });

  it('maps 401 to an AuthError', async () => {
    const server = await serve((_req, res) => sendJson(res, 401, { error: 'Unauthorized/Invalid api key' }));
    const err = await rejection(getOk(client(server.url)));
    expect(err).toBeInstanceOf(AuthError);
    expect((err as Error).message).toContain('Unauthorized/Invalid api key');
  });
});

describe('transport: writes are sent at most once', () => {
  it('a write that times out is outcome-unknown and is not retried', async () => {
    const server = await serve(() => undefined);
    const venue = client(server.url, { timeoutMs: 150 });
    // the deadline runs from the post's arrival (on real time, one held up past it was never sent)
    const err = await rejection(onArrivalClock(() => venue.send({ route: 'postOrders', body: ORDERS }), arrivals(venue, server)));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(isOutcomeUnknown(err)).toBe(true);
    // the send is over: one attempt, not retried
    expect(venue.transport.counters.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('every attempt of one client has its own deadline (the controller made ahead is never reused)', async () => {
    // answers every post but those of salt 'hang'; those time out after 150 ms, the answered ones
    // have 10 s (one deadline for all had the answered ones beat 150 ms: a loaded machine can hold
    // a loopback answer up longer, and CI saw this test take 200 ms more than its two deadlines)
    const server = await serve((req, res) => ((JSON.parse(req.body) as { order: { salt: string } }[])[0]!.order.salt === 'hang' ? undefined : sendJson(res, 200, [])));
    const venue = client(server.url);
    const post = (hang = false) => venue.send({ route: 'postOrders', body: [{ order: { salt: hang ? 'hang' : '1' }, orderType: 'GTC', owner: 'k' }], timeoutMs: hang ? 150 : 10_000 });
    // deadlines run from the posts' arrival (on real time, a hung post held up past its 150 ms was never sent)
    await onArrivalClock(async () => {
      expect(await rejection(post(true))).toBeInstanceOf(TimeoutError);
      // after a spent deadline the next post is answered, not aborted at once
      expect((await post()).text).toBe('[]');
      // two at once: one takes the controller made ahead, the other makes its own; only the unanswered one times out
      const both = await Promise.allSettled([post(true), post()]);
      expect(both.filter((r) => r.status === 'rejected' && r.reason instanceof TimeoutError)).toHaveLength(1);
      expect(both.filter((r) => r.status === 'fulfilled' && r.value.text === '[]')).toHaveLength(1);
      expect((await post()).text).toBe('[]');
    }, arrivals(venue, server));
    expect(server.requests).toHaveLength(5);
  });

  it("the caller's signal ends a write waiting for its answer (outcome unknown, the caller's reason kept); its deadline still times out a silent venue", async () => {
    let arrived!: () => void;
    const got = new Promise<void>((resolve) => (arrived = resolve));
    // never answers; tells when the first request is in
    const server = await serve(() => arrived());
    const body = [{ order: { salt: '1' }, orderType: 'GTC', owner: 'k' }];
    const caller = new AbortController();
    const venue = client(server.url, { timeoutMs: 150 });
    const reason = new Error('run stopped');
    // the deadline runs from the post's arrival (on real time, a post held up past its 150 ms timed out before the caller's abort)
    const err = await rejection(
      onArrivalClock(async () => {
        const pending = venue.send({ route: 'postOrders', body, signal: caller.signal });
        await got;
        caller.abort(reason);
        return pending;
      }, arrivals(venue, server)),
    );
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).message).toBe('POST /orders: aborted by the caller');
    expect((err as TransportError).requestSent).toBe(true);
    expect((err as TransportError).cause).toBe(reason);
    // a caller's signal that stays quiet: the deadline ends the attempt as a timeout, and the
    // attempts leave at most one listener on the caller's signal, however many there were
    const quiet = new AbortController();
    // the deadlines run from the posts' arrival (on real time, one held up past its 150 ms was never sent)
    await onArrivalClock(async () => {
      const timedOut = await rejection(venue.send({ route: 'postOrders', body, signal: quiet.signal }));
      expect(timedOut).toBeInstanceOf(TimeoutError);
      expect(await rejection(venue.send({ route: 'postOrders', body, signal: quiet.signal }))).toBeInstanceOf(TimeoutError);
    }, arrivals(venue, server));
    expect(getEventListeners(quiet.signal, 'abort').length).toBeLessThanOrEqual(1);
    expect(server.requests).toHaveLength(3);
  });

  it("many requests in flight under one caller's signal: one listener on it, no leak warning, and its abort ends them all", async () => {
    let arrivedAll!: () => void;
    const all = new Promise<void>((resolve) => (arrivedAll = resolve));
    const N = 20;
    let n = 0;
    const server = await serve(() => {
      if (++n === N) arrivedAll();
    });
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const venue = client(server.url, { timeoutMs: 30_000 });
      const caller = new AbortController();
      const pending = Array.from({ length: N }, (_, i) => rejection(venue.send({ route: 'getOrderBook', query: { token_id: String(i) }, signal: caller.signal })));
      await all;
      expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
      caller.abort(new Error('run stopped'));
      const errors = await Promise.all(pending);
      expect(errors.every((e) => e instanceof TransportError && e.message.endsWith('aborted by the caller'))).toBe(true);
      // the warning is emitted on the next tick
      await wait(10);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a write whose connection drops after sending is outcome-unknown and is not retried', async () => {
    const server = await serve((_req, res) => void res.socket?.destroy());
    const err = await rejection(postOrders(server.url));
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).requestSent).toBe(true);
    expect(isOutcomeUnknown(err)).toBe(true);
    await wait(100);
    expect(server.requests).toHaveLength(1);
  });

  it('a write answered 500 is not retried either', async () => {
    const server = await serve((_req, res) => sendJson(res, 500, { error: 'internal' }));
    const err = await rejection(postOrders(server.url));
    expect(err).toMatchObject({ status: 500 });
    expect(server.requests).toHaveLength(1);
  });

  it('a write to a port nobody listens on was never sent', async () => {
    const port = await closedPort();
    const err = await rejection(postOrders(`http://127.0.0.1:${port}`));
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).requestSent).toBe(false);
    expect(isOutcomeUnknown(err)).toBe(false);
  });

  it('a read whose connection drops is retried', async () => {
    const server = await serve((_req, res, n) => (n === 1 ? void res.socket?.destroy() : sendJson(res, 200, 'OK')));
    expect(await getOk(client(server.url))).toBe('OK');
    expect(server.requests).toHaveLength(2);
  });
});

describe('transport: error bodies that are not JSON', () => {
  const html403 = '<!DOCTYPE html><html><head><title>Attention Required!</title><style>p{}</style></head><body><h1>Sorry, you have been blocked</h1></body></html>';

  it('an HTML 403 becomes a VenueRejectError with a plain-text excerpt', async () => {
    const server = await serve((_req, res) => sendText(res, 403, html403));
    const err = await rejection(getOk(client(server.url)));
    expect(err).toBeInstanceOf(VenueRejectError);
    expect(err).toMatchObject({ status: 403, body: undefined });
    expect((err as VenueRejectError).venueMessage).toBe('Attention Required! Sorry, you have been blocked');
    expect(server.requests).toHaveLength(1);
  });

  it('an HTML 429 is still a RateLimitError with its Retry-After', async () => {
    const server = await serve((_req, res) => sendText(res, 429, '<html><body>Too Many Requests</body></html>', { 'retry-after': '7' }));
    const err = await rejection(getOk(client(server.url, { retries: 0 })));
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(7_000);
    expect((err as Error).message).toContain('Too Many Requests');
  });

  it('a 200 that is not JSON is a DecodeError naming the route', async () => {
    const server = await serve((_req, res) => sendText(res, 200, '<html>maintenance</html>'));
    const err = await rejection(getVersion(client(server.url)));
    expect(err).toBeInstanceOf(DecodeError);
    expect((err as DecodeError).path).toBe('GET /version');
  });
});

describe('transport: bytes and URLs', () => {
  it('serialises the body once: beforeSend sees exactly the bytes the venue receives', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, []));
    const seen: { route: string; method: string; path: string; body: string }[] = [];
    const c = client(server.url, {
      beforeSend: (route, method, path, body) => {
        seen.push({ route, method, path, body });
        return { 'x-signature': `sig:${body.length}` };
      },
    });
    const tokens = ['71321045679252212594626385532706912750332728571942532289631379312455583992563', '2'];
    await getOrderBooks(c, tokens);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ route: 'getOrderBooks', method: 'POST', path: '/books' });
    expect(server.requests[0]!.body).toBe(seen[0]!.body);
    expect(JSON.parse(server.requests[0]!.body)).toEqual(tokens.map((token_id) => ({ token_id })));
    expect(server.requests[0]!.headers['x-signature']).toBe(`sig:${seen[0]!.body.length}`);
    expect(server.requests[0]!.headers['content-type']).toBe('application/json');
  });

  it('routes each group to its own base URL', async () => {
    const server = await serve((req, res) => {
      if (req.url.startsWith('/gamma/tags')) return sendJson(res, 200, []);
      if (req.url === '/clob/') return sendJson(res, 200, 'OK');
      if (req.url.startsWith('/data/trades')) return sendJson(res, 200, []);
      return sendJson(res, 404, { error: 'not found' });
    });
    const c = createVenueClient({
      profile: 'polymarket',
      urls: { metadata: `${server.url}/gamma`, trading: `${server.url}/clob/`, analytics: `${server.url}/data` },
    });
    await getTags(c, { limit: 5 });
    await getOk(c);
    await getTrades(c, { market: ['0xa', '0xb'], side: 'BUY' });
    expect(server.requests.map((r) => r.url)).toEqual(['/gamma/tags?limit=5', '/clob/', '/data/trades?market=0xa%2C0xb&side=BUY']);
  });

  it('POST /books goes out in chunks of at most 500 tokens', async () => {
    const server = await serve((req, res) => {
      const asked = JSON.parse(req.body) as { token_id: string }[];
      sendJson(
        res,
        200,
        asked.map((t) => ({ market: '0xm', asset_id: t.token_id, timestamp: '1', hash: 'h', bids: [], asks: [] })),
      );
    });
    const tokens = Array.from({ length: 1_201 }, (_, i) => String(i + 1));
    const books = await getOrderBooks(client(server.url), tokens);
    expect(server.requests.map((r) => (JSON.parse(r.body) as unknown[]).length).sort((a, b) => a - b)).toEqual([201, 500, 500]);
    expect(books.map((b) => b.tokenId)).toEqual(tokens);
  });
});
