import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import type { RouteId } from '../../src/venue/endpoints.ts';
import { createVenueClient, type VenueClient, type VenueRequest } from '../../src/venue/client.ts';
import { requestJson } from '../../src/venue/request.ts';
import * as venue from '../../src/venue/index.ts';
import {
  ACTIVITY,
  CLOSED_POSITION,
  COMMENT,
  EVENT,
  EVENT_CREATOR,
  FEE_RATE,
  HOLDER_GROUP,
  METADATA_MARKET_SINGLE,
  MIDPOINT,
  NEG_RISK,
  ORDER_BOOK,
  PAGE,
  PRICE,
  PRICE_PAIR,
  PRICE_POINT,
  PRICES_HISTORY,
  SEARCH,
  SIMPLIFIED_MARKET,
  TAG,
  TICK_SIZE,
  TRADE_FILL,
  TRADING_MARKET,
  TRADING_MARKET_DETAIL,
  TRADING_MARKET_EXTRA,
  VERSION,
  checkArray,
  checkShape,
  type Shape,
} from './contract-spec.ts';

/**
 * Contract per route against the sandbox over loopback: the raw answer carries every field of
 * interface part 2 (or PROTOCOL's shape) with its JSON type, and our action decodes it. Run
 * twice: with one base URL, and with three group URLs (`/gamma`, `/clob`, `/data`).
 */
let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({ seed: 11, markets: 40, events: 12, flow: { enabled: false } });
});
afterAll(async () => {
  await sb.close();
});

const SETUPS = [
  ['one base URL', (url: string) => createVenueClient({ baseUrl: url, retries: 0 })],
  ['three group URLs', (url: string) => createVenueClient({ urls: { metadata: `${url}/gamma`, trading: `${url}/clob`, analytics: `${url}/data` }, retries: 0 })],
] as const;

describe.each(SETUPS)('contract against the sandbox (%s)', (_name, make) => {
  let client: VenueClient;
  let conditionId: string;
  let tokenId: string;
  beforeAll(async () => {
    client = make(sb.url);
    const page = await venue.getMarkets(client);
    const market = page.items.find((m) => m.tokens.length > 0 && m.enableOrderBook) ?? page.items[0];
    conditionId = market!.conditionId;
    tokenId = market!.tokens[0]!.tokenId;
  });

  const raw = async (route: RouteId, request: Omit<VenueRequest, 'route'> = {}): Promise<unknown> =>
    (await requestJson(client, { route, ...request })).value;

  const noProblems = (problems: string[]): void => expect(problems.slice(0, 20)).toEqual([]);

  function checkPage(value: unknown, item: Shape, path: string): unknown[] {
    noProblems(checkShape(value, PAGE, path));
    const data = (value as { data: unknown[] }).data;
    expect(data.length).toBeGreaterThan(0);
    noProblems(checkArray(data, item, `${path}.data`));
    return data;
  }

  // -- trading (2.1, 2.10-2.13, PROTOCOL's small routes)

  it('GET /markets: page of trading markets (2.10), without the detail-only fields', async () => {
    const value = await raw('getMarkets', { query: { next_cursor: 'MA==' } });
    const data = checkPage(value, TRADING_MARKET, 'markets');
    for (const field of Object.keys(TRADING_MARKET_EXTRA)) expect(data[0]).not.toHaveProperty(field);
    const page = await venue.getMarkets(client);
    expect(page.items.map((m) => m.conditionId)).toEqual(data.map((m) => (m as { condition_id: string }).condition_id));
  });

  it('GET /markets/{condition_id}: one trading market with every field of 2.10', async () => {
    noProblems(checkShape(await raw('getTradingMarket', { pathParams: { condition_id: conditionId } }), TRADING_MARKET_DETAIL, 'market'));
    const market = await venue.getTradingMarket(client, conditionId);
    expect(market.conditionId).toBe(conditionId);
    expect(market.tickSize).toBeGreaterThan(0);
    expect(market.marketId).toBeTypeOf('number');
  });

  it('GET /sampling-markets: page of detailed trading markets', async () => {
    checkPage(await raw('getSamplingMarkets', { query: { next_cursor: 'MA==' } }), TRADING_MARKET_DETAIL, 'sampling-markets');
    expect((await venue.getSamplingMarkets(client)).items[0]?.status).toBeTypeOf('string');
  });

  it('GET /simplified-markets and /sampling-simplified-markets: pages of 2.11', async () => {
    checkPage(await raw('getSimplifiedMarkets', { query: { next_cursor: 'MA==' } }), SIMPLIFIED_MARKET, 'simplified');
    checkPage(await raw('getSamplingSimplifiedMarkets', { query: { next_cursor: 'MA==' } }), SIMPLIFIED_MARKET, 'sampling-simplified');
    expect((await venue.getSimplifiedMarkets(client)).items.length).toBeGreaterThan(0);
    expect((await venue.getSamplingSimplifiedMarkets(client)).items.length).toBeGreaterThan(0);
  });

  it('POST /books: array of 2.12; decoded books are sorted with exact levels', async () => {
    const value = await raw('getOrderBooks', { body: [{ token_id: tokenId }] });
    noProblems(checkArray(value, ORDER_BOOK, 'books'));
    const [book] = await venue.getOrderBooks(client, [tokenId]);
    expect(book?.tokenId).toBe(tokenId);
    const bids = book!.bids.map((l) => l.price);
    const asks = book!.asks.map((l) => l.price);
    expect(bids).toEqual([...bids].sort((a, b) => b - a));
    expect(asks).toEqual([...asks].sort((a, b) => a - b));
    expect(bids.length + asks.length).toBeGreaterThan(0);
  });

  it('POST /prices: map of 2.13', async () => {
    const value = (await raw('getPrices', { body: [{ token_id: tokenId }] })) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual([tokenId]);
    noProblems(checkShape(value[tokenId], PRICE_PAIR, `prices.${tokenId}`));
    const [prices] = await venue.getPrices(client, [tokenId]);
    expect(prices?.buy).toBeTypeOf('number');
  });

  it('GET /, /book, /price, /midpoint', async () => {
    expect(await raw('getOk')).toBe('OK');
    expect(await venue.getOk(client)).toBe('OK');
    noProblems(checkShape(await raw('getOrderBook', { query: { token_id: tokenId } }), ORDER_BOOK, 'book'));
    expect((await venue.getOrderBook(client, tokenId)).tokenId).toBe(tokenId);
    noProblems(checkShape(await raw('getPrice', { query: { token_id: tokenId, side: 'BUY' } }), PRICE, 'price'));
    expect((await venue.getPrice(client, tokenId, 'SELL')).price).toBeGreaterThanOrEqual(0);
    noProblems(checkShape(await raw('getMidpoint', { query: { token_id: tokenId } }), MIDPOINT, 'midpoint'));
    expect((await venue.getMidpoint(client, tokenId)).mid).toBeGreaterThan(0);
  });

  it('GET /prices-history and POST /batch-prices-history', async () => {
    const history = await raw('getPricesHistory', { query: { market: tokenId, interval: '1d' } });
    noProblems(checkShape(history, PRICES_HISTORY, 'prices-history'));
    expect((history as { history: unknown[] }).history.length).toBeGreaterThan(0);
    expect((await venue.getPricesHistory(client, { market: tokenId, interval: '1d' })).length).toBeGreaterThan(0);
    const batch = (await raw('getBatchPricesHistory', { body: { markets: [tokenId], interval: '1d' } })) as { history: Record<string, unknown> };
    noProblems(checkArray(batch.history[tokenId], PRICE_POINT, `batch.history.${tokenId}`));
    const decoded = await venue.getBatchPricesHistory(client, { markets: [tokenId], interval: '1d' });
    expect(Object.keys(decoded)).toEqual([tokenId]);
  });

  it('GET /time, /tick-size, /neg-risk, /fee-rate, /version', async () => {
    expect(await raw('getServerTime')).toBeTypeOf('number');
    expect((await venue.getServerTime(client)).serverTimeMs).toBeGreaterThan(1_600_000_000_000);
    noProblems(checkShape(await raw('getTickSize', { query: { token_id: tokenId } }), TICK_SIZE, 'tick-size'));
    expect(await venue.getTickSize(client, tokenId)).toBeGreaterThan(0);
    noProblems(checkShape(await raw('getNegRisk', { query: { token_id: tokenId } }), NEG_RISK, 'neg-risk'));
    expect(await venue.getNegRisk(client, tokenId)).toBeTypeOf('boolean');
    noProblems(checkShape(await raw('getFeeRate', { query: { token_id: tokenId } }), FEE_RATE, 'fee-rate'));
    expect(await venue.getFeeRate(client, tokenId)).toBeGreaterThanOrEqual(0);
    noProblems(checkShape(await raw('getVersion'), VERSION, 'version'));
    expect(await venue.getVersion(client)).toBe(2);
  });

  // -- metadata (2.7-2.9, PROTOCOL's event/tag/search routes)

  it('GET /events: array of 2.8; GET /events/slug/{slug}: one event', async () => {
    const events = await raw('getEvents', { query: { limit: '3' } });
    noProblems(checkArray(events, EVENT, 'events'));
    const slug = (events as { slug: string }[])[0]!.slug;
    noProblems(checkShape(await raw('getEventBySlug', { pathParams: { slug } }), EVENT, 'event'));
    const event = await venue.getEventBySlug(client, slug);
    expect(event.slug).toBe(slug);
    expect(event.markets.length).toBeGreaterThan(0);
    expect(event.markets[0]?.clobTokenIds.length).toBeGreaterThan(0);
  });

  it('GET /markets/slug/{slug} and GET /markets/{id}: metadata form with events', async () => {
    const [event] = await venue.getEvents(client, { limit: 1 });
    const market = event!.markets[0]!;
    noProblems(checkShape(await raw('getMarketBySlug', { pathParams: { slug: market.slug } }), METADATA_MARKET_SINGLE, 'market'));
    noProblems(checkShape(await raw('getMetadataMarket', { pathParams: { id: market.id } }), METADATA_MARKET_SINGLE, 'market'));
    const bySlug = await venue.getMarketBySlug(client, market.slug);
    const byId = await venue.getMetadataMarket(client, market.id);
    expect(byId).toEqual(bySlug);
    expect(bySlug.events?.[0]?.id).toBe(event!.id);
    if (client.urls.metadata !== client.urls.trading) {
      // With its own base URL the metadata group also answers a condition id.
      expect((await venue.getMetadataMarket(client, market.conditionId)).id).toBe(market.id);
    }
  });

  it('GET /events/creators (2.9), GET /tags, GET /public-search', async () => {
    noProblems(checkArray(await raw('getEventCreators', { query: { limit: '5' } }), EVENT_CREATOR, 'creators'));
    expect((await venue.getEventCreators(client, { limit: 5 })).length).toBeGreaterThan(0);
    noProblems(checkArray(await raw('getTags'), TAG, 'tags'));
    expect((await venue.getTags(client)).length).toBeGreaterThan(0);
    const [event] = await venue.getEvents(client, { limit: 1 });
    const word = event!.title.split(/\s+/).find((w) => w.length > 3) ?? event!.title;
    const search = await raw('publicSearch', { query: { q: word } });
    noProblems(checkShape(search, SEARCH, 'search'));
    const results = await venue.searchPublic(client, word);
    expect(results.events.length).toBeGreaterThan(0);
  });

  // -- wallet analytics (2.2-2.5)

  it('GET /trades: array of 2.2', async () => {
    const value = await raw('getTrades', { query: { limit: '20' } });
    noProblems(checkArray(value, TRADE_FILL, 'trades'));
    expect((value as unknown[]).length).toBeGreaterThan(0);
    const fills = await venue.getTrades(client, { limit: 20 });
    expect(fills).toHaveLength((value as unknown[]).length);
    expect(fills[0]?.tsEvent).toBe((value as { timestamp: number }[])[0]!.timestamp * 1000);
  });

  it('GET /closed-positions: array of 2.3', async () => {
    const user = sb.world.closedPositions[0]!.wallet.address;
    const value = await raw('getClosedPositions', { query: { user } });
    noProblems(checkArray(value, CLOSED_POSITION, 'closed-positions'));
    expect((value as unknown[]).length).toBeGreaterThan(0);
    expect((await venue.getClosedPositions(client, { user }))[0]?.proxyWallet).toBe(user);
  });

  it('GET /activity: array of 2.4', async () => {
    const user = sb.world.fills[0]!.wallet.address;
    const value = await raw('getActivity', { query: { user } });
    noProblems(checkArray(value, ACTIVITY, 'activity'));
    expect((value as unknown[]).length).toBeGreaterThan(0);
    expect((await venue.getActivity(client, { user })).length).toBe((value as unknown[]).length);
  });

  it('GET /holders: array of 2.5', async () => {
    const market = sb.world.holdings[0]!.token.market.conditionId;
    const value = await raw('getHolders', { query: { market } });
    noProblems(checkArray(value, HOLDER_GROUP, 'holders'));
    const groups = await venue.getHolders(client, { market: [market] });
    expect(groups.some((g) => g.holders.length > 0)).toBe(true);
  });

  // -- comments (2.6)

  it('GET /comments, /comments/user_address/{a}, /comments/{id}: arrays of 2.6', async () => {
    const value = await raw('getComments', { query: { limit: '10' } });
    noProblems(checkArray(value, COMMENT, 'comments'));
    const comments = await venue.getComments(client, { limit: 10 });
    expect(comments.length).toBeGreaterThan(0);
    const parent = sb.world.comments.find((c) => c.replies.length > 0)!;
    const author = comments[0]!.userAddress!;
    noProblems(checkArray(await raw('getCommentsByUser', { pathParams: { user_address: author } }), COMMENT, 'by-user'));
    expect((await venue.getCommentsByUser(client, author)).every((c) => c.userAddress === author)).toBe(true);
    const replies = await raw('getCommentReplies', { pathParams: { id: parent.id } });
    noProblems(checkArray(replies, COMMENT, 'replies'));
    const decoded = await venue.getCommentReplies(client, parent.id);
    expect(decoded.map((c) => c.id)).toContain(parent.replies[0]!.id);
  });
});
