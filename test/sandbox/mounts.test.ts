import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClock, SimulatedClock } from '../../src/core/clock.ts';
import { buildSandboxApp, sandboxContextOf, startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../src/sandbox/world/model.ts';
import { SHAPES, call, expectEach, expectShape } from './helpers.ts';
import { TestTrader } from './trading/harness.ts';

/** The root mount, the `/gamma`, `/clob`, `/data` mounts, `/markets/{x}` dispatch and the profiles. */

let sb: RunningSandbox;
let market: SandboxMarket;

beforeAll(async () => {
  sb = await startSandbox({ seed: 11, clock: new SimulatedClock(Date.UTC(2026, 10, 20)), limits: { enabled: false } });
  market = sb.world.markets.find((m) => !m.closed && m.negRisk)!;
});
afterAll(async () => {
  await sb.close();
});

describe('prefix mounts', () => {
  it('serves every group under its prefix with the root answers', async () => {
    const token = market.tokens[0].tokenId;
    const user = sb.world.closedPositions[0]!.wallet.address;
    const comment = sb.world.comments.find((c) => c.replies.length > 0)!;
    const gets: Record<string, string[]> = {
      '/gamma': [
        `/markets/slug/${market.slug}`,
        `/markets/${market.id}`,
        `/events/slug/${market.event.slug}`,
        '/events/creators',
        '/events?limit=3',
        '/tags',
        '/public-search?q=will',
      ],
      '/clob': [
        '/markets',
        `/markets/${market.conditionId}`,
        '/sampling-markets',
        '/simplified-markets',
        '/sampling-simplified-markets',
        `/book?token_id=${token}`,
        `/price?token_id=${token}&side=SELL`,
        `/midpoint?token_id=${token}`,
        `/prices-history?market=${token}&interval=6h`,
        '/time',
        `/tick-size?token_id=${token}`,
        `/neg-risk?token_id=${token}`,
        `/fee-rate?token_id=${token}`,
        '/version',
      ],
      '/data': [
        '/trades?limit=5',
        `/closed-positions?user=${user}`,
        `/activity?user=${user}`,
        `/holders?market=${market.conditionId}`,
        '/comments',
        `/comments/user_address/${comment.wallet.address}`,
        `/comments/${comment.id}`,
      ],
    };
    for (const [prefix, paths] of Object.entries(gets)) {
      for (const path of paths) {
        const root = await call(`${sb.url}${path}`);
        const mounted = await call(`${sb.url}${prefix}${path}`);
        expect(root.status, path).toBe(200);
        expect(mounted.status, prefix + path).toBe(200);
        expect(mounted.body, prefix + path).toEqual(root.body);
      }
    }
    const ok = await call(`${sb.url}/clob`);
    expect(ok.body).toBe('OK');
    const body = [{ token_id: token }];
    for (const path of ['/books', '/prices']) {
      expect((await call(`${sb.url}/clob${path}`, { json: body })).body).toEqual((await call(`${sb.url}${path}`, { json: body })).body);
    }
    const history = { markets: [token], interval: '1h' };
    expect((await call(`${sb.url}/clob/batch-prices-history`, { json: history })).body).toEqual(
      (await call(`${sb.url}/batch-prices-history`, { json: history })).body,
    );
  });

  it('does not serve a group under another group\'s prefix; /data/orders is the account route of the trading group', async () => {
    for (const path of ['/gamma/markets', '/gamma/book?token_id=1', '/clob/trades', '/clob/events', '/data/markets', '/data/events']) {
      const { status, body } = await call(`${sb.url}${path}`);
      expect(status, path).toBe(404);
      expect(body.error).toMatch(/^no route GET /);
    }
    for (const path of ['/data/orders', '/clob/data/orders']) {
      const { status, body } = await call(`${sb.url}${path}`);
      expect(status, path).toBe(401);
      expect(body.error).toMatch(/^L2 auth: header SERVICE_ADDRESS is missing/);
    }
    expect((await call(`${sb.url}/gamma/books`, { json: [{ token_id: market.tokens[0].tokenId }] })).status).toBe(404);
  });

  it('counts a prefixed request as its route', async () => {
    await call(`${sb.url}/admin/stats/reset`, { json: {} });
    await call(`${sb.url}/clob/version`);
    await call(`${sb.url}/version`);
    await call(`${sb.url}/gamma/tags`);
    const stats = await call(`${sb.url}/admin/stats`);
    expect(stats.body.routes).toEqual({ getVersion: 2, getTags: 1 });
    expect(stats.body.total).toBe(3);
  });
});

describe('/markets/{x} dispatch', () => {
  it('root: a condition id answers the trading form, a numeric id the metadata form', async () => {
    const trading = await call(`${sb.url}/markets/${market.conditionId}`);
    expectShape(trading.body, { ...SHAPES.tradingMarket, ...SHAPES.tradingDetailExtra });
    const metadata = await call(`${sb.url}/markets/${market.id}`);
    expectShape(metadata.body, SHAPES.metadataMarket);
    expect(metadata.body.conditionId).toBe(market.conditionId);
  });

  it('/gamma answers the metadata form for both kinds of id; /clob the trading form by condition id only', async () => {
    const byCondition = await call(`${sb.url}/gamma/markets/${market.conditionId}`);
    expectShape(byCondition.body, SHAPES.metadataMarket);
    expect(byCondition.body).toEqual((await call(`${sb.url}/gamma/markets/${market.id}`)).body);
    const trading = await call(`${sb.url}/clob/markets/${market.conditionId}`);
    expectShape(trading.body, { ...SHAPES.tradingMarket, ...SHAPES.tradingDetailExtra });
    expect((await call(`${sb.url}/clob/markets/${market.id}`)).status).toBe(404);
  });

  it('counts each form as its own route', async () => {
    await call(`${sb.url}/admin/stats/reset`, { json: {} });
    await call(`${sb.url}/markets/${market.conditionId}`);
    await call(`${sb.url}/markets/${market.id}`);
    await call(`${sb.url}/markets/${market.id}`);
    expect((await call(`${sb.url}/admin/stats`)).body.routes).toEqual({ getTradingMarket: 1, getMetadataMarket: 2 });
  });
});

describe('/data/trades', () => {
  it('is the analytics route, and the account route for requests with an API-key header', async () => {
    const app = buildSandboxApp({ markets: 20, events: 5, limits: { enabled: false } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const keyed = { headers: { SERVICE_API_KEY: '00000000-0000-4000-8000-000000000000' } };
      const before = await call(`${base}/data/trades?limit=2`);
      expectEach(before.body, SHAPES.tradeFill);
      // the account route: the five L2 headers are checked
      expect((await call(`${base}/data/trades`, keyed)).status).toBe(401);
      const trader = await new TestTrader(base, 'interface', new LiveClock(), 0x5a).login();
      const account = await trader.l2('GET', '/data/trades');
      expect(account.body).toEqual({ data: [], next_cursor: 'LTE=', limit: 100, count: 0 });
      const analytics = await call(`${base}/data/trades?limit=2`);
      expect(analytics.body).toEqual(before.body);
      const stats = sandboxContextOf(app).stats.snapshot();
      expect(stats.routes).toEqual({ getTrades: 2, getAccountTrades: 2, createApiKey: 1 });
    } finally {
      await app.close();
    }
  });
});

describe('profiles', () => {
  it('interface names an analytics asset <condition_id>:<index>; polymarket by its token id', async () => {
    const poly = await startSandbox({ seed: 11, profile: 'polymarket', limits: { enabled: false } });
    try {
      const fill = sb.world.fills.find((f) => f.taker)!;
      const path = `/trades?user=${fill.wallet.address}&limit=1`;
      const a = (await call<any[]>(`${sb.url}${path}`)).body[0];
      const b = (await call<any[]>(`${poly.url}${path}`)).body[0];
      expect(a.asset).toBe(`${a.conditionId}:${a.outcomeIndex}`);
      const token = sb.world.markets.find((m) => m.conditionId === b.conditionId)!.tokens[b.outcomeIndex as 0 | 1];
      expect(b.asset).toBe(token.tokenId);
      expect({ ...b, asset: a.asset }).toEqual(a);
      const holders = await call<any[]>(`${poly.url}/holders?market=${market.conditionId}`);
      expect(holders.body.map((g) => g.token)).toEqual(market.tokens.map((t) => t.tokenId));
    } finally {
      await poly.close();
    }
  });
});
