import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { LiveClock } from '../../src/core/clock.ts';
import type { FeedEvent } from '../../src/data/feed-events.ts';
import { wsMarketSource } from '../../src/data/ws-source.ts';
import { until } from '../sandbox/ws/helpers.ts';

/**
 * The WS source's silence watchdog (`silentAfterMs`) on the live clock, against a loopback
 * server: a connection with no market message for that long is silent; this process held up for
 * that long (a pause, a starved CPU) is not (its venue's messages wait unread, or, in this process
 * too, were held up with it).
 */

const BOOK = JSON.parse(readFileSync('/work/shared/fixtures/venue/ws_market_book.json', 'utf8')) as { asset_id: string };
const SILENT_MS = 200;

const subs: Subscription[] = [];
const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const s of subs.splice(0)) s.unsubscribe();
  for (const w of servers.splice(0)) {
    for (const c of w.clients) c.terminate();
    await new Promise<void>((resolve) => w.close(() => resolve()));
  }
});

/** A venue that answers a subscription with the book, then sends it again every `everyMs` (never, when undefined). */
async function venue(everyMs?: number): Promise<string> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  servers.push(wss);
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (socket: ServerSocket) => {
    socket.on('message', (data) => {
      const text = (data as Buffer).toString('utf8');
      socket.send(text === 'PING' ? 'PONG' : JSON.stringify([BOOK]));
    });
    if (everyMs === undefined) return;
    const beat = setInterval(() => socket.send(JSON.stringify(BOOK)), everyMs);
    socket.on('close', () => clearInterval(beat));
  });
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
}

function watch(url: string): { feed: FeedEvent[]; books: () => number } {
  const feed: FeedEvent[] = [];
  let books = 0;
  subs.push(
    wsMarketSource({ url, tokenIds: [BOOK.asset_id], clock: new LiveClock(), silentAfterMs: SILENT_MS, onFeedEvent: (e) => feed.push(e) }).subscribe((e) => {
      if (e.type === 'book') books++;
    }),
  );
  return { feed, books: () => books };
}

describe('the WS silence watchdog on the live clock', () => {
  it('tells a connection with no market message for silentAfterMs silent, and resubscribes it', async () => {
    const w = watch(await venue());
    await until(() => w.books() === 1, 'the snapshot');
    await until(() => w.feed.some((e) => e.type === 'FeedSilent'), 'a silence');
    expect(w.feed.find((e) => e.type === 'FeedSilent')).toMatchObject({ action: 'resubscribe', tokenIds: [BOOK.asset_id] });
  });

  it('does not take this process held up past silentAfterMs for a silent venue: the silence counts again from then', async () => {
    const w = watch(await venue(20));
    await until(() => w.books() > 3, 'the snapshot and a few books');
    // the whole thread held up three times silentAfterMs, as a loaded machine or a long pause does:
    // the watchdog's look is due long before it runs again, and so is this venue's next book (in
    // this thread too, it goes out at once then, as a remote venue's would wait in the socket)
    const held = Date.now() + 3 * SILENT_MS;
    while (Date.now() < held);
    const after = w.books();
    await until(() => w.books() > after + 3, 'books after the hold');
    expect(w.feed.filter((e) => e.type === 'FeedSilent')).toEqual([]);
  });
});
