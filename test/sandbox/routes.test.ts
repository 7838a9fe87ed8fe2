import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { parseMicros } from '../../src/core/fixed.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../src/sandbox/world/model.ts';
import { ADDRESS_RE, CONDITION_RE, DECIMAL_RE, ISO_RE, SHAPES, TOKEN_RE, call, expectEach, expectShape } from './helpers.ts';

const NOW_MS = Date.UTC(2026, 10, 20, 12, 0, 0);
let sb: RunningSandbox;
let url: string;
let binary: SandboxMarket;
let negRisk: SandboxMarket;

beforeAll(async () => {
  sb = await startSandbox({ seed: 7, clock: new SimulatedClock(NOW_MS), limits: { enabled: false } });
  url = sb.url;
  binary = sb.world.markets.find((m) => !m.negRisk && !m.closed) as SandboxMarket;
  negRisk = sb.world.markets.find((m) => m.negRisk && !m.closed) as SandboxMarket;
});
afterAll(async () => {
  await sb.close();
});

describe('metadata routes', () => {
  it('GET /markets/slug/{slug} answers the metadata form with its event', async () => {
    const { status, body } = await call(`${url}/markets/slug/${binary.slug}`);
    expect(status).toBe(200);
    expectShape(body, SHAPES.metadataMarket);
    expect(body.conditionId).toBe(binary.conditionId);
    expect(body.conditionId).toMatch(CONDITION_RE);
    expect(body.questionID).toMatch(CONDITION_RE);
    expect(body.id).toMatch(/^\d+$/);
    for (const field of ['startDate', 'endDate', 'createdAt', 'updatedAt']) expect(body[field]).toMatch(ISO_RE);
    const outcomes = JSON.parse(body.outcomes);
    const tokenIds = JSON.parse(body.clobTokenIds);
    expect(outcomes).toEqual([...binary.outcomes]);
    expect(tokenIds).toEqual(binary.tokens.map((t) => t.tokenId));
    for (const id of tokenIds) expect(id).toMatch(TOKEN_RE);
    expectEach(body.events, SHAPES.eventSummary, '$.events');
    expect(body.events[0].slug).toBe(binary.event.slug);
  });

  it('GET /markets/{id} with a numeric id answers the same market', async () => {
    const bySlug = await call(`${url}/markets/slug/${negRisk.slug}`);
    const byId = await call(`${url}/markets/${negRisk.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(bySlug.body);
  });

  it('GET /events/slug/{slug} answers the full event; a neg-risk event holds several markets', async () => {
    const { status, body } = await call(`${url}/events/slug/${negRisk.event.slug}`);
    expect(status).toBe(200);
    expectShape(body, { ...SHAPES.eventSummary, tags: 'array', markets: 'array', series: 'array', eventMetadata: 'object' });
    expectEach(body.tags, SHAPES.tag, '$.tags');
    expectEach(body.series, SHAPES.series, '$.series');
    expectEach(body.markets, SHAPES.metadataMarket, '$.markets');
    expect(body.markets.length).toBe(negRisk.event.markets.length);
    expect(body.markets.length).toBeGreaterThan(1);
    for (const m of body.markets) expect(m.events).toBeUndefined();
  });

  it('GET /events/creators pages, sorts and filters', async () => {
    const all = await call<any[]>(`${url}/events/creators?limit=100&order=creatorName&ascending=true`);
    expect(all.status).toBe(200);
    expectEach(all.body, SHAPES.creator);
    const names = all.body.map((c) => c.creatorName);
    expect(names).toEqual([...names].sort());
    const two = await call<any[]>(`${url}/events/creators?limit=2&offset=1&order=creatorName&ascending=true`);
    expect(two.body).toEqual(all.body.slice(1, 3));
    const first = all.body[0];
    const filtered = await call<any[]>(`${url}/events/creators?creator_handle=${first.creatorHandle}`);
    expect(filtered.body.map((c) => c.id)).toContain(first.id);
    expect(filtered.body.every((c) => c.creatorHandle.includes(first.creatorHandle))).toBe(true);
  });

  it('GET /events lists full events with filters', async () => {
    const page = await call<any[]>(`${url}/events?limit=5&offset=2`);
    expect(page.status).toBe(200);
    expect(page.body.map((e) => e.id)).toEqual(sb.world.events.slice(2, 7).map((e) => e.id));
    const closed = await call<any[]>(`${url}/events?closed=true&limit=1000`);
    expect(closed.body.length).toBe(sb.world.events.filter((e) => e.closed).length);
    expect(closed.body.every((e) => e.closed === true)).toBe(true);
    const tag = sb.world.events[0]!.tags[0]!;
    const tagged = await call<any[]>(`${url}/events?tag_id=${tag.id}&limit=1000`);
    expect(tagged.body.length).toBeGreaterThan(0);
    expect(tagged.body.every((e) => e.tags.some((t: { id: string }) => t.id === tag.id))).toBe(true);
    const bySlug = await call<any[]>(`${url}/events?slug=${negRisk.event.slug}`);
    expect(bySlug.body.map((e) => e.slug)).toEqual([negRisk.event.slug]);
  });

  it('GET /tags and GET /public-search', async () => {
    const tags = await call(`${url}/tags?limit=3`);
    expectEach(tags.body, SHAPES.tag);
    expect(tags.body.length).toBe(3);
    const word = negRisk.event.title.split(' ')[0] as string;
    const found = await call(`${url}/public-search?q=${encodeURIComponent(word)}&limit_per_type=3`);
    expect(found.status).toBe(200);
    expectShape(found.body, { events: 'array', tags: 'array', profiles: 'array' });
    expect(found.body.events.length).toBeGreaterThan(0);
    expect(found.body.events.length).toBeLessThanOrEqual(3);
    for (const e of found.body.events) expect(e.title.toLowerCase()).toContain(word.toLowerCase());
    const people = await call(`${url}/public-search?q=${sb.world.wallets[0]!.pseudonym}`);
    expectEach(people.body.profiles, SHAPES.searchProfile);
    expect(people.body.profiles.length).toBeGreaterThan(0);
  });
});

describe('trading routes', () => {
  it('GET /markets pages with base64 offsets from MA== to LTE=, without the sampling extras', async () => {
    const seen: string[] = [];
    let cursor = 'MA==';
    let pages = 0;
    while (cursor !== 'LTE=') {
      const { status, body } = await call(`${url}/markets?next_cursor=${encodeURIComponent(cursor)}`);
      expect(status).toBe(200);
      expectShape(body, SHAPES.page);
      expect(body.limit).toBe(100);
      expect(body.count).toBe(body.data.length);
      expectEach(body.data, SHAPES.tradingMarket);
      for (const m of body.data) {
        expectEach(m.tokens, SHAPES.marketToken, '$.tokens');
        expectShape(m.rewards, SHAPES.rewards, '$.rewards');
        expect(m.tokens).toHaveLength(2);
        seen.push(m.condition_id);
      }
      if (body.next_cursor !== 'LTE=') expect(Buffer.from(body.next_cursor, 'base64').toString()).toBe(String(seen.length));
      cursor = body.next_cursor;
      pages++;
    }
    expect(pages).toBe(2);
    expect(seen).toEqual(sb.world.markets.map((m) => m.conditionId));
    const end = await call(`${url}/markets?next_cursor=LTE%3D`);
    expect(end.body).toEqual({ data: [], next_cursor: 'LTE=', limit: 100, count: 0 });
  });

  it('GET /markets/{condition_id} answers the trading form with the extra fields', async () => {
    const { status, body } = await call(`${url}/markets/${negRisk.conditionId}`);
    expect(status).toBe(200);
    expectShape(body, { ...SHAPES.tradingMarket, ...SHAPES.tradingDetailExtra });
    expect(body.neg_risk).toBe(true);
    expect(body.neg_risk_market_id).toBe(negRisk.event.negRiskMarketId);
    expect(body.neg_risk_market_id).toMatch(CONDITION_RE);
    expect(body.market_id).toBe(negRisk.numericId);
    expect(body.assets_ids).toEqual(negRisk.tokens.map((t) => t.tokenId));
    expectShape(body.event, { id: 'string', slug: 'string', title: 'string', ticker: 'string', description: 'string' });
    const siblings = negRisk.event.markets.filter((m) => m !== negRisk);
    const sibling = await call(`${url}/markets/${siblings[0]!.conditionId}`);
    expect(sibling.body.neg_risk_market_id).toBe(body.neg_risk_market_id);
  });

  it('sampling and simplified lists', async () => {
    const sampling = await call(`${url}/sampling-markets?next_cursor=MA==`);
    expect(sampling.status).toBe(200);
    expectShape(sampling.body, SHAPES.page);
    expect(sampling.body.data.length).toBeGreaterThan(0);
    expectEach(sampling.body.data, { ...SHAPES.tradingMarket, ...SHAPES.tradingDetailExtra });
    for (const m of sampling.body.data) {
      expect(m.rewards.rates.length).toBeGreaterThan(0);
      expect(m.accepting_orders).toBe(true);
    }
    const simplified = await call(`${url}/simplified-markets`);
    expectEach(simplified.body.data, SHAPES.simplifiedMarket);
    expect(simplified.body.data).toHaveLength(100);
    const samplingSimplified = await call(`${url}/sampling-simplified-markets?next_cursor=MA==`);
    expectEach(samplingSimplified.body.data, SHAPES.simplifiedMarket);
    expect(samplingSimplified.body.data.map((m: { condition_id: string }) => m.condition_id)).toEqual(
      sampling.body.data.map((m: { condition_id: string }) => m.condition_id),
    );
  });

  it('POST /books answers books with depth on the tick grid, bid < ask, YES and NO mirrored', async () => {
    const markets = sb.world.markets.filter((m) => !m.closed).slice(0, 10);
    const ids = markets.flatMap((m) => m.tokens.map((t) => t.tokenId));
    const { status, body } = await call<any[]>(`${url}/books`, { json: ids.map((token_id) => ({ token_id })) });
    expect(status).toBe(200);
    expect(body.map((b) => b.asset_id)).toEqual(ids);
    for (const [i, book] of body.entries()) {
      expectShape(book, SHAPES.book);
      expectEach(book.bids, SHAPES.level, '$.bids');
      expectEach(book.asks, SHAPES.level, '$.asks');
      const market = markets[Math.floor(i / 2)] as SandboxMarket;
      expect(book.market).toBe(market.conditionId);
      expect(book.hash).toMatch(/^[0-9a-f]{16}$/); // the matching engine's content hash
      expect(book.timestamp).toBe(String(NOW_MS));
      expect(parseMicros(book.tick_size)).toBe(market.tickSize);
      expect(parseMicros(book.min_order_size)).toBe(market.minOrderSize);
      const tick = market.tickSize;
      const bids = book.bids.map((l: { price: string }) => parseMicros(l.price)).sort((a: number, b: number) => b - a);
      const asks = book.asks.map((l: { price: string }) => parseMicros(l.price)).sort((a: number, b: number) => a - b);
      expect(bids.length).toBeGreaterThanOrEqual(3);
      expect(asks.length).toBeGreaterThanOrEqual(3);
      for (const p of [...bids, ...asks]) {
        expect(p % tick).toBe(0);
        expect(p).toBeGreaterThanOrEqual(tick);
        expect(p).toBeLessThanOrEqual(1_000_000 - tick);
      }
      expect(bids[0]).toBeLessThan(asks[0]);
      for (const l of [...book.bids, ...book.asks]) expect(l.size).toMatch(DECIMAL_RE);
    }
    for (let i = 0; i < body.length; i += 2) {
      const yes = body[i];
      const no = body[i + 1];
      const flip = (levels: { price: string; size: string }[]): string[] =>
        levels.map((l) => `${1_000_000 - parseMicros(l.price)}@${l.size}`).sort();
      const same = (levels: { price: string; size: string }[]): string[] => levels.map((l) => `${parseMicros(l.price)}@${l.size}`).sort();
      expect(same(no.bids)).toEqual(flip(yes.asks));
      expect(same(no.asks)).toEqual(flip(yes.bids));
    }
  });

  it('GET /book, /price, /midpoint and POST /prices agree with the book', async () => {
    const token = binary.tokens[0].tokenId;
    const book = await call(`${url}/book?token_id=${token}`);
    expect(book.status).toBe(200);
    const books = await call<any[]>(`${url}/books`, { json: [{ token_id: token }] });
    expect(book.body).toEqual(books.body[0]);
    const bestBid = Math.max(...book.body.bids.map((l: { price: string }) => parseMicros(l.price)));
    const bestAsk = Math.min(...book.body.asks.map((l: { price: string }) => parseMicros(l.price)));
    const buy = await call(`${url}/price?token_id=${token}&side=BUY`);
    const sell = await call(`${url}/price?token_id=${token}&side=SELL`);
    expect(buy.body).toEqual({ price: expect.stringMatching(DECIMAL_RE) });
    expect(parseMicros(buy.body.price)).toBe(bestBid);
    expect(parseMicros(sell.body.price)).toBe(bestAsk);
    const mid = await call(`${url}/midpoint?token_id=${token}`);
    expect(parseMicros(mid.body.mid)).toBe((bestBid + bestAsk) / 2);
    const prices = await call(`${url}/prices`, { json: [{ token_id: token }, { token_id: negRisk.tokens[1].tokenId, side: 'BUY' }] });
    expect(prices.status).toBe(200);
    expect(prices.body[token]).toEqual({ BUY: buy.body.price, SELL: sell.body.price });
    expect(Object.keys(prices.body[negRisk.tokens[1].tokenId])).toEqual(['BUY']);
    expect(typeof prices.body[token].BUY).toBe('string');
  });

  it('GET /prices-history and POST /batch-prices-history answer points in the window', async () => {
    const token = negRisk.tokens[0].tokenId;
    const nowS = NOW_MS / 1000;
    const day = await call(`${url}/prices-history?market=${token}&interval=1d&fidelity=60`);
    expect(day.status).toBe(200);
    expectShape(day.body, { history: 'array' });
    expect(day.body.history.length).toBe(25); // both ends of the window are in it
    for (const point of day.body.history) {
      expectShape(point, { t: 'integer', p: 'number' });
      expect(point.t % 3600).toBe(0);
      expect(point.t).toBeGreaterThanOrEqual(nowS - 86_400);
      expect(point.t).toBeLessThanOrEqual(nowS);
      expect(point.p).toBeGreaterThan(0);
      expect(point.p).toBeLessThan(1);
    }
    const ranged = await call(`${url}/prices-history?market=${token}&startTs=${nowS - 7200}&endTs=${nowS}&fidelity=30`);
    expect(ranged.body.history.map((p: { t: number }) => p.t)).toEqual([0, 1, 2, 3, 4].map((k) => nowS - 7200 + k * 1800));
    const again = await call(`${url}/prices-history?market=${token}&startTs=${nowS - 7200}&endTs=${nowS}&fidelity=30`);
    expect(again.body).toEqual(ranged.body);
    const no = await call(`${url}/prices-history?market=${negRisk.tokens[1].tokenId}&startTs=${nowS - 7200}&endTs=${nowS}&fidelity=30`);
    no.body.history.forEach((p: { p: number }, i: number) => expect(p.p + ranged.body.history[i].p).toBeCloseTo(1, 9));
    const batch = await call(`${url}/batch-prices-history`, {
      json: { markets: [token, binary.tokens[0].tokenId], start_ts: nowS - 7200, end_ts: nowS, fidelity: 30 },
    });
    expect(batch.status).toBe(200);
    expect(Object.keys(batch.body.history)).toEqual([token, binary.tokens[0].tokenId]);
    expect(batch.body.history[token]).toEqual(ranged.body.history);
  });

  it('small routes: /, /time, /version, /tick-size, /neg-risk, /fee-rate', async () => {
    const ok = await call(`${url}/`);
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('OK');
    expect(ok.headers.get('content-type')).toMatch(/application\/json/);
    expect((await call(`${url}/time`)).body).toBe(NOW_MS / 1000);
    expect((await call(`${url}/version`)).body).toEqual({ version: 2 });
    const token = negRisk.tokens[0].tokenId;
    expect((await call(`${url}/tick-size?token_id=${token}`)).body).toEqual({ minimum_tick_size: negRisk.tickSize / 1e6 });
    expect((await call(`${url}/neg-risk?token_id=${token}`)).body).toEqual({ neg_risk: true });
    expect((await call(`${url}/neg-risk?token_id=${binary.tokens[1].tokenId}`)).body).toEqual({ neg_risk: false });
    expect((await call(`${url}/fee-rate?token_id=${token}`)).body).toEqual({ base_fee: negRisk.takerBaseFee });
  });
});

describe('analytics routes', () => {
  const wallet = () => sb.world.closedPositions[0]!.wallet;

  it('GET /trades answers taker fills, newest first, with filters', async () => {
    const all = await call<any[]>(`${url}/trades?limit=50`);
    expect(all.status).toBe(200);
    expectEach(all.body, SHAPES.tradeFill);
    expect(all.body).toHaveLength(50);
    const times = all.body.map((f) => f.timestamp);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const f of all.body) {
      expect(f.proxyWallet).toMatch(ADDRESS_RE);
      expect(f.asset).toBe(`${f.conditionId}:${f.outcomeIndex}`);
      expect(f.usdcSize).toBeCloseTo(f.size * f.price, 6);
    }
    const takerCount = sb.world.fills.filter((f) => f.taker).length;
    const everything = await call<any[]>(`${url}/trades?limit=10000`);
    expect(everything.body.length).toBe(takerCount);
    const withMakers = await call<any[]>(`${url}/trades?limit=10000&takerOnly=false`);
    expect(withMakers.body.length).toBe(sb.world.fills.length);
    const sells = await call<any[]>(`${url}/trades?side=SELL&limit=10000&takerOnly=false`);
    expect(sells.body.length).toBe(sb.world.fills.filter((f) => f.side === 'SELL').length);
    const market = sb.world.fills[0]!.token.market.conditionId;
    const inMarket = await call<any[]>(`${url}/trades?market=${market}&takerOnly=false`);
    expect(inMarket.body.length).toBeGreaterThan(0);
    expect(inMarket.body.every((f) => f.conditionId === market)).toBe(true);
    const big = await call<any[]>(`${url}/trades?filterType=CASH&filterAmount=100&limit=10000&takerOnly=false`);
    expect(big.body.length).toBeGreaterThan(0);
    expect(big.body.every((f) => f.usdcSize >= 100)).toBe(true);
    const mine = await call<any[]>(`${url}/trades?user=${wallet().address.toLowerCase()}&takerOnly=false`);
    expect(mine.body.length).toBe(sb.world.fillsOf(wallet()).length);
    const paged = await call<any[]>(`${url}/trades?limit=5&offset=3`);
    expect(paged.body).toEqual(all.body.slice(3, 8));
  });

  it('GET /closed-positions, /activity and /holders', async () => {
    const w = wallet();
    const closed = await call<any[]>(`${url}/closed-positions?user=${w.address}&limit=50`);
    expect(closed.status).toBe(200);
    expectEach(closed.body, SHAPES.closedPosition);
    expect(closed.body.length).toBe(sb.world.closedPositionsOf(w).length);
    const pnl = closed.body.map((p) => p.realizedPnl);
    expect(pnl).toEqual([...pnl].sort((a, b) => b - a));
    const byTitle = await call<any[]>(`${url}/closed-positions?user=${w.address}&sortBy=TITLE&sortDirection=ASC&limit=50`);
    const titles = byTitle.body.map((p) => p.title);
    expect(titles).toEqual([...titles].sort());
    for (const p of closed.body) expect(p.oppositeAsset).toBe(`${p.conditionId}:${1 - p.outcomeIndex}`);

    const activity = await call<any[]>(`${url}/activity?user=${w.address}`);
    expectEach(activity.body, SHAPES.activity);
    expect(activity.body.length).toBe(sb.world.fillsOf(w).length);
    expect(activity.body.every((a) => a.type === 'TRADE' && a.proxyWallet === w.address)).toBe(true);
    expect((await call(`${url}/activity?user=0x0000000000000000000000000000000000000001`)).body).toEqual([]);

    const market = sb.world.holdings[0]!.token.market;
    const holders = await call<any[]>(`${url}/holders?market=${market.conditionId}&minBalance=0`);
    expect(holders.status).toBe(200);
    expectEach(holders.body, SHAPES.holderGroup);
    expect(holders.body.map((g) => g.token)).toEqual([`${market.conditionId}:0`, `${market.conditionId}:1`]);
    const flat = holders.body.flatMap((g) => g.holders);
    expect(flat.length).toBeGreaterThan(0);
    expectEach(flat, SHAPES.holder);
    for (const g of holders.body) {
      const amounts = g.holders.map((h: { amount: number }) => h.amount);
      expect(amounts).toEqual([...amounts].sort((a: number, b: number) => b - a));
    }
    const rich = await call<any[]>(`${url}/holders?market=${market.conditionId}&minBalance=100&limit=1`);
    for (const g of rich.body) {
      expect(g.holders.length).toBeLessThanOrEqual(1);
      for (const h of g.holders) expect(h.amount).toBeGreaterThanOrEqual(100);
    }
  });
});

describe('comment routes', () => {
  it('GET /comments answers threads with profiles, reactions and replies', async () => {
    const { status, body } = await call<any[]>(`${url}/comments?limit=100`);
    expect(status).toBe(200);
    expectEach(body, SHAPES.comment);
    expect(body.length).toBe(Math.min(100, sb.world.comments.length));
    const created = body.map((c) => c.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    for (const c of body) {
      expectShape(c.profile, SHAPES.commentProfile, '$.profile');
      expectEach(c.reactions, SHAPES.reaction, '$.reactions');
      expectEach(c.replies, SHAPES.comment, '$.replies');
      expect(c.replyCount).toBe(c.replies.length);
      expect(c.reactionCount).toBe(c.reactions.length);
      for (const r of c.replies) {
        expect(r.parentCommentID).toBe(c.id);
        expect(r.replyAddress).toBe(c.userAddress);
      }
    }
    const threaded = body.find((c) => c.replies.length > 0 && c.reactions.length > 0);
    expect(threaded).toBeDefined();
    const holders = await call<any[]>(`${url}/comments?holders_only=true&limit=100`);
    expect(holders.body.length).toBeGreaterThan(0);
    expect(holders.body.every((c) => c.profile.positions.length > 0)).toBe(true);
    const event = sb.world.comments.find((c) => c.parentEntityType === 'Event')!.event!;
    const onEvent = await call<any[]>(`${url}/comments?event_slug=${event.slug}`);
    expect(onEvent.body.length).toBeGreaterThan(0);
    expect(onEvent.body.every((c) => c.parentEntityType === 'Event' && c.parentEntityID === Number(event.id))).toBe(true);
    const series = await call<any[]>(`${url}/comments?parent_entity_type=Series&limit=100`);
    expect(series.body.length).toBeGreaterThan(0);
    expect(series.body.every((c) => c.parentEntityType === 'Series')).toBe(true);
  });

  it('GET /comments/{id} answers the replies; /comments/user_address/{a} a user\'s comments', async () => {
    const parent = sb.world.comments.find((c) => c.replies.length >= 2)!;
    const replies = await call<any[]>(`${url}/comments/${parent.id}?order=createdAt&ascending=true`);
    expect(replies.status).toBe(200);
    expectEach(replies.body, SHAPES.comment);
    expect(replies.body.map((r) => r.id)).toEqual(parent.replies.map((r) => r.id));
    const author = parent.wallet.address;
    const mine = await call<any[]>(`${url}/comments/user_address/${author}?limit=100`);
    expect(mine.body.length).toBeGreaterThan(0);
    expect(mine.body.every((c) => c.userAddress === author)).toBe(true);
    expect(mine.body.map((c) => c.id)).toContain(parent.id);
  });
});

describe('errors', () => {
  it('answers 404 {"error"} for unknown ids, slugs and tokens', async () => {
    const missing = [
      '/markets/slug/no-such-market',
      '/markets/999',
      `/markets/0x${'ab'.repeat(32)}`,
      '/events/slug/no-such-event',
      '/book?token_id=123456789',
      '/price?token_id=123456789&side=BUY',
      '/midpoint?token_id=123456789',
      '/tick-size?token_id=42',
      '/neg-risk?token_id=42',
      '/fee-rate?token_id=42',
      '/prices-history?market=42',
      `/holders?market=0x${'cd'.repeat(32)}`,
      '/comments/123',
      '/comments?event_slug=nope',
      '/no/such/route',
    ];
    for (const path of missing) {
      const { status, body, headers } = await call(`${url}${path}`);
      expect(status, path).toBe(404);
      expect(headers.get('content-type'), path).toMatch(/application\/json/);
      expect(Object.keys(body), path).toEqual(['error']);
      expect(typeof body.error).toBe('string');
    }
    const books = await call(`${url}/books`, { json: [{ token_id: binary.tokens[0].tokenId }, { token_id: '77' }] });
    expect(books.status).toBe(404);
    expect(books.body.error).toContain("'77'");
    const prices = await call(`${url}/prices`, { json: [{ token_id: '77' }] });
    expect(prices.status).toBe(404);
  });

  it('answers 400 {"error"} for malformed bodies', async () => {
    const bad: [string, RequestInit][] = [
      ['/books', { method: 'POST', body: '{"token_id": "1"}', headers: { 'content-type': 'application/json' } }],
      ['/books', { method: 'POST', body: '[]', headers: { 'content-type': 'application/json' } }],
      ['/books', { method: 'POST', body: '[{"tokenId": "1"}]', headers: { 'content-type': 'application/json' } }],
      ['/books', { method: 'POST', body: '[{"token_id": 5}]', headers: { 'content-type': 'application/json' } }],
      ['/books', { method: 'POST', body: '[{"token_id": "1"', headers: { 'content-type': 'application/json' } }],
      ['/books', { method: 'POST', body: JSON.stringify(Array.from({ length: 501 }, () => ({ token_id: '1' }))), headers: { 'content-type': 'application/json' } }],
      ['/books', { method: 'POST', body: '[{"token_id": "1"}]', headers: { 'content-type': 'text/plain' } }],
      ['/prices', { method: 'POST', body: '[{"token_id": "1", "side": "HOLD"}]', headers: { 'content-type': 'application/json' } }],
      ['/prices', { method: 'POST', body: '"x"', headers: { 'content-type': 'application/json' } }],
      ['/batch-prices-history', { method: 'POST', body: '{"markets": []}', headers: { 'content-type': 'application/json' } }],
      ['/batch-prices-history', { method: 'POST', body: '{"markets": ["1"], "fidelity": 0}', headers: { 'content-type': 'application/json' } }],
      ['/batch-prices-history', { method: 'POST', body: '{"markets": ["1"], "interval": "2y"}', headers: { 'content-type': 'application/json' } }],
      ['/batch-prices-history', { method: 'POST', body: '[1]', headers: { 'content-type': 'application/json' } }],
    ];
    for (const [path, init] of bad) {
      const { status, body } = await call(`${url}${path}`, init);
      expect(status, `${path} ${typeof init.body === 'string' ? init.body.slice(0, 30) : ''}`).toBe(400);
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error.length).toBeGreaterThan(0);
    }
  });

  it('answers 400 for a bad cursor and for history windows that contradict themselves', async () => {
    const cursor = await call(`${url}/markets?next_cursor=%21%21`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.error).toContain("'next_cursor'");
    const token = binary.tokens[0].tokenId;
    const both = await call(`${url}/prices-history?market=${token}&interval=1d&startTs=1`);
    expect(both.status).toBe(400);
    expect(both.body.error).toContain("'interval'");
    const backwards = await call(`${url}/prices-history?market=${token}&startTs=2000000000&endTs=1000000000`);
    expect(backwards.status).toBe(400);
    expect(backwards.body.error).toContain("'startTs'");
  });
});
