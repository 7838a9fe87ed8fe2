import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParameterError } from '../../src/core/errors.ts';
import type { Side } from '../../src/core/types.ts';
import * as venue from '../../src/venue/index.ts';
import { createVenueClient, type VenueClient } from '../../src/venue/client.ts';
import { sendJson, startLoopback, type Loopback } from './loopback-server.ts';

/**
 * Parameters that break a rule of interface part 4 are refused by the client before anything is
 * sent: a counting loopback server proves that no request left.
 */
let server: Loopback;
let client: VenueClient;

beforeAll(async () => {
  server = await startLoopback((_req, res) => sendJson(res, 200, []));
  client = createVenueClient({ baseUrl: server.url, retries: 0 });
});
afterAll(async () => {
  await server.close();
});

/** A well-formed wallet address, so the parameter under test is the one refused. */
const USER = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
const long = 'x'.repeat(101);

const CASES: readonly (readonly [string, string, () => Promise<unknown>])[] = [
  ['GET /trades limit > 10000', 'limit', () => venue.getTrades(client, { limit: 10_001 })],
  ['GET /trades negative offset', 'offset', () => venue.getTrades(client, { offset: -1 })],
  ['GET /trades filterType without filterAmount', 'filterAmount', () => venue.getTrades(client, { filterType: 'CASH' })],
  ['GET /trades negative filterAmount', 'filterAmount', () => venue.getTrades(client, { filterType: 'CASH', filterAmount: -1 })],
  ['GET /trades unknown side', 'side', () => venue.getTrades(client, { side: 'HOLD' as Side })],
  ['GET /trades empty market item', 'market', () => venue.getTrades(client, { market: ['0xa', ''] })],
  ['GET /closed-positions without user', 'user', () => venue.getClosedPositions(client, { user: '' })],
  ['GET /closed-positions title > 100', 'title', () => venue.getClosedPositions(client, { user: USER, title: long })],
  ['GET /closed-positions limit > 50', 'limit', () => venue.getClosedPositions(client, { user: USER, limit: 51 })],
  ['GET /closed-positions offset > 100000', 'offset', () => venue.getClosedPositions(client, { user: USER, offset: 100_001 })],
  ['GET /closed-positions unknown sortBy', 'sortBy', () => venue.getClosedPositions(client, { user: USER, sortBy: 'SIZE' as 'TITLE' })],
  ['GET /closed-positions unknown sortDirection', 'sortDirection', () => venue.getClosedPositions(client, { user: USER, sortDirection: 'UP' as 'ASC' })],
  ['GET /activity without user', 'user', () => venue.getActivity(client, { user: '' })],
  ['GET /activity limit > 500', 'limit', () => venue.getActivity(client, { user: USER, limit: 501 })],
  ['GET /activity offset > 10000', 'offset', () => venue.getActivity(client, { user: USER, offset: 10_001 })],
  ['GET /holders without market', 'market', () => venue.getHolders(client, { market: [] })],
  ['GET /holders limit > 500', 'limit', () => venue.getHolders(client, { market: ['0xa'], limit: 501 })],
  ['GET /holders negative minBalance', 'minBalance', () => venue.getHolders(client, { market: ['0xa'], minBalance: -1 })],
  ['GET /comments limit 0', 'limit', () => venue.getComments(client, { limit: 0 })],
  ['GET /comments limit > 100', 'limit', () => venue.getComments(client, { limit: 101 })],
  ['GET /comments negative offset', 'offset', () => venue.getComments(client, { offset: -1 })],
  ['GET /comments unknown parent_entity_type', 'parent_entity_type', () => venue.getComments(client, { parentEntityType: 'Tag' as 'Event' })],
  ['GET /comments/user_address/{} empty address', 'user_address', () => venue.getCommentsByUser(client, '')],
  ['GET /comments/user_address/{} limit > 100', 'limit', () => venue.getCommentsByUser(client, '0xu', { limit: 101 })],
  ['GET /comments/{id} empty id', 'id', () => venue.getCommentReplies(client, ' ')],
  ['GET /comments/{id} fractional limit', 'limit', () => venue.getCommentReplies(client, '1', { limit: 2.5 })],
  ['GET /events/creators limit 0', 'limit', () => venue.getEventCreators(client, { limit: 0 })],
  ['GET /events/creators negative offset', 'offset', () => venue.getEventCreators(client, { offset: -3 })],
  ['GET /events limit > 1000', 'limit', () => venue.getEvents(client, { limit: 1_001 })],
  ['GET /tags negative offset', 'offset', () => venue.getTags(client, { offset: -1 })],
  ['GET /public-search without q', 'q', () => venue.searchPublic(client, '')],
  ['GET /public-search limit_per_type 0', 'limit_per_type', () => venue.searchPublic(client, 'btc', { limitPerType: 0 })],
  ['GET /markets/slug/{} empty slug', 'slug', () => venue.getMarketBySlug(client, '')],
  ['GET /events/slug/{} empty slug', 'slug', () => venue.getEventBySlug(client, '')],
  ['GET /markets/{id} condition id on a shared URL', 'id', () => venue.getMetadataMarket(client, '0xabc')],
  ['GET /markets/{condition_id} empty id', 'condition_id', () => venue.getTradingMarket(client, '')],
  ['GET /book without token_id', 'token_id', () => venue.getOrderBook(client, '')],
  ['GET /price unknown side', 'side', () => venue.getPrice(client, '1', 'MID' as Side)],
  ['GET /midpoint without token_id', 'token_id', () => venue.getMidpoint(client, '')],
  ['GET /prices-history without market', 'market', () => venue.getPricesHistory(client, { market: '' })],
  ['GET /prices-history unknown interval', 'interval', () => venue.getPricesHistory(client, { market: '1', interval: '2h' as '1h' })],
  ['GET /prices-history fidelity 0', 'fidelity', () => venue.getPricesHistory(client, { market: '1', fidelity: 0 })],
  ['GET /prices-history negative startTs', 'startTs', () => venue.getPricesHistory(client, { market: '1', startTs: -5 })],
  ['POST /batch-prices-history without markets', 'markets', () => venue.getBatchPricesHistory(client, { markets: [] })],
  ['POST /batch-prices-history unknown interval', 'interval', () => venue.getBatchPricesHistory(client, { markets: ['1'], interval: '5m' as '1m' })],
  ['POST /books empty token id', 'token_id[1]', () => venue.getOrderBooks(client, ['1', ''])],
  ['POST /prices empty token id', 'token_id[0]', () => venue.getPrices(client, [''])],
  ['GET /tick-size without token_id', 'token_id', () => venue.getTickSize(client, '')],
  ['GET /neg-risk without token_id', 'token_id', () => venue.getNegRisk(client, '')],
  ['GET /fee-rate without token_id', 'token_id', () => venue.getFeeRate(client, '')],
];

describe('parameter rules are enforced before sending', () => {
  for (const [name, param, call] of CASES) {
    it(name, async () => {
      const before = server.requests.length;
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ParameterError);
      expect((err as ParameterError).param).toBe(param);
      expect(server.requests.length).toBe(before);
    });
  }

  it('no request at all left for any refused call, while valid calls do reach the server', async () => {
    expect(server.requests).toHaveLength(0);
    await venue.getTrades(client, { limit: 10_000, filterType: 'TOKENS', filterAmount: 0, market: ['0xa', '0xb'] });
    await venue.getHolders(client, { market: ['0xa'], limit: 500, minBalance: 0 });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/trades?limit=10000&filterType=TOKENS&filterAmount=0&market=0xa%2C0xb',
      '/holders?market=0xa&limit=500&minBalance=0',
    ]);
  });
});
