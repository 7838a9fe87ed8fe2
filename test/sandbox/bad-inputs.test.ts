import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { MAX_HISTORY_FIDELITY } from '../../src/sandbox/routes/price-history.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../src/sandbox/world/model.ts';
import type { WireOrderSubmission } from '../../src/venue/wire/account.ts';
import { call } from './helpers.ts';
import { pickMarket, TestTrader, units } from './trading/harness.ts';

/**
 * Inputs the sandbox once took and now refuses with a 400 `{"error"}` naming the field: a history
 * fidelity beyond any span, an expiration on an order that does not expire (or one that is not unix
 * seconds), and a comments-by-user address that is not an address. Real HTTP on loopback.
 */

const NOW_MS = Date.UTC(2026, 10, 20, 12, 0, 0);
const clock = new SimulatedClock(NOW_MS);
let sb: RunningSandbox;
let alice: TestTrader;
let market: SandboxMarket;

beforeAll(async () => {
  sb = await startSandbox({ flow: { enabled: false }, seed: 8, markets: 60, events: 12, clock, limits: { enabled: false } });
  alice = await new TestTrader(sb.url, 'interface', clock, 0x81).login();
  market = pickMarket(sb);
});
afterAll(async () => {
  await sb.close();
});

describe('price history fidelity', () => {
  const token = (): string => market.tokens[0].tokenId;

  it('POST /batch-prices-history refuses fidelity 1e308 (and any beyond ten years of minutes) with 400', async () => {
    for (const fidelity of [1e308, MAX_HISTORY_FIDELITY + 1, Number.MAX_SAFE_INTEGER + 1]) {
      const answer = await call(`${sb.url}/batch-prices-history`, { json: { markets: [token()], interval: 'max', fidelity } });
      expect(answer.status, String(fidelity)).toBe(400);
      expect(answer.body).toEqual({ error: expect.stringMatching(/^getBatchPricesHistory: parameter 'fidelity' must be/) });
    }
    const ok = await call(`${sb.url}/batch-prices-history`, { json: { markets: [token()], interval: 'max', fidelity: MAX_HISTORY_FIDELITY } });
    expect(ok.status).toBe(200);
    expect(ok.body.history[token()].length).toBeLessThanOrEqual(1);
    const start = await call(`${sb.url}/batch-prices-history`, { json: { markets: [token()], start_ts: 1e300 } });
    expect(start.status).toBe(400);
    expect(start.body.error).toContain("'start_ts'");
  });

  it('GET /prices-history refuses a fidelity too large for a number with 400', async () => {
    const answer = await call(`${sb.url}/prices-history?market=${token()}&fidelity=1${'0'.repeat(320)}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: expect.stringMatching(/^getPricesHistory: parameter 'fidelity' must be an integer from 1 to 5256000/) });
    expect((await call(`${sb.url}/prices-history?market=${token()}&fidelity=1440`)).status).toBe(200);
  });
});

describe('order expiration', () => {
  const spec = (orderType: 'GTC' | 'GTD' | 'FOK' = 'GTC', expiration?: number) =>
    ({ market, side: 'BUY', price: 0.11, size: units(market.minOrderSize), orderType, expiration }) as const;
  const withExpiration = (item: WireOrderSubmission, expiration: unknown): WireOrderSubmission =>
    ({ ...item, order: { ...item.order, expiration } }) as WireOrderSubmission;

  it('a GTC order with expiration "-1" is a 400 for the whole batch; nothing of it is placed', async () => {
    const good = alice.sign(spec());
    const bad = alice.sign(spec());
    const before = sb.context.orderLog.entries().length;
    const answer = await alice.l2('POST', '/orders', [alice.item(good), withExpiration(alice.item(bad), '-1')]);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'Invalid order payload: body[1].order.expiration must be unix seconds as a decimal string, was "-1"' });
    expect(sb.context.orderLog.entries().length).toBe(before);
    expect(sb.engine.order(good.orderHash)).toBeUndefined();
  });

  it('refuses expirations that are not unix seconds, or not "0" on a GTC, FOK or FAK order; POST /order alike', async () => {
    const cases: [string, WireOrderSubmission, RegExp][] = [
      ['GTC in the future', withExpiration(alice.item(alice.sign(spec())), String(NOW_MS / 1000 + 600)), /must be "0" or absent for a GTC order/],
      ['FOK with one', withExpiration(alice.item(alice.sign(spec('FOK'))), '5'), /for a FOK order/],
      ['a number', withExpiration(alice.item(alice.sign(spec())), 0), /must be unix seconds as a decimal string, was 0$/],
      ['a fraction', withExpiration(alice.item(alice.sign(spec('GTD', NOW_MS / 1000 + 600))), '1.5'), /unix seconds/],
      ['GTD "-1"', withExpiration(alice.item(alice.sign(spec('GTD', NOW_MS / 1000 + 600))), '-1'), /unix seconds/],
    ];
    for (const [label, item, message] of cases) {
      const batch = await alice.l2('POST', '/orders', [item]);
      expect(batch.status, label).toBe(400);
      expect(batch.body.error, label).toMatch(message);
      const single = await alice.l2('POST', '/order', item);
      expect(single.status, label).toBe(400);
      expect(single.body.error, label).toMatch(/^Invalid order payload: body\.order\.expiration/);
    }
  });

  it('takes "0" or no expiration on a GTC order and a future one on a GTD order', async () => {
    const zero = withExpiration(alice.item(alice.sign(spec())), '0');
    const absent = alice.item(alice.sign(spec()));
    const gtd = alice.item(alice.sign(spec('GTD', NOW_MS / 1000 + 600)));
    const answer = await alice.l2('POST', '/orders', [zero, absent, gtd]);
    expect(answer.status).toBe(200);
    expect(answer.body.map((r: { success: boolean }) => r.success)).toEqual([true, true, true]);
  });
});

describe('comments by user', () => {
  it('GET /comments/user_address/{a} answers 400 for an address that is not a 0x address', async () => {
    for (const path of ['/comments/user_address/..%2f', '/comments/user_address/abc', '/data/comments/user_address/0x12', `/comments/user_address/0x${'g'.repeat(40)}`]) {
      const answer = await call(`${sb.url}${path}`);
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toEqual({ error: expect.stringMatching(/^getCommentsByUser: parameter 'user_address' must be a 0x address/) });
    }
    expect((await call(`${sb.url}/comments/user_address/0x${'0'.repeat(40)}`)).body).toEqual([]);
    const author = sb.world.comments[0]!.wallet.address;
    const mine = await call<unknown[]>(`${sb.url}/comments/user_address/${author}`);
    expect(mine.status).toBe(200);
    expect(mine.body.length).toBeGreaterThan(0);
  });
});

describe('query values the sandbox cannot serve', () => {
  it('GET /positions, /trades, /activity and /closed-positions answer 400 for a user that is not a 0x address', async () => {
    for (const path of ['/positions', '/activity', '/closed-positions', '/trades', '/data/positions']) {
      const answer = await call(`${sb.url}${path}?user=nothex`);
      expect(answer.status, path).toBe(400);
      expect(answer.body.error, path).toMatch(/parameter 'user' must be a 0x address \(40 hex digits\), was 'nothex'$/);
    }
    expect((await call(`${sb.url}/positions?user=${alice.address}`)).status).toBe(200);
    expect((await call(`${sb.url}/positions?user=${alice.address.toLowerCase()}`)).status).toBe(200);
  });

  it('GET /events, /events/creators and /comments answer 400 for an order column the sandbox does not sort by, naming the ones it does', async () => {
    const events = await call(`${sb.url}/events?order=bogus`);
    expect(events.status).toBe(400);
    expect(events.body).toEqual({ error: "getEvents: parameter 'order' must be one of id, title, slug, startDate, endDate, createdAt, updatedAt, was 'bogus'" });
    for (const path of ['/events/creators?order=bogus', '/comments?order=bogus', `/comments/${sb.world.comments[0]!.id}?order=toString`]) {
      const answer = await call(`${sb.url}${path}`);
      expect(answer.status, path).toBe(400);
      expect(answer.body.error, path).toMatch(/parameter 'order' must be one of .*, was '(bogus|toString)'$/);
    }
    const sorted = await call<{ id: string }[]>(`${sb.url}/events?order=id&ascending=true&limit=3`);
    expect(sorted.status).toBe(200);
    expect(sorted.body.length).toBe(3);
  });

  it('GET /prices-history answers 400 for an endTs or startTs past the year 9999', async () => {
    const token = market.tokens[0].tokenId;
    for (const name of ['endTs', 'startTs']) {
      const answer = await call(`${sb.url}/prices-history?market=${token}&${name}=99999999999999999`);
      expect(answer.status, name).toBe(400);
      expect(answer.body).toEqual({ error: `getPricesHistory: parameter '${name}' must be <= 253402300799, was 100000000000000000` });
    }
    const batch = await call(`${sb.url}/batch-prices-history`, { json: { markets: [token], end_ts: 1e17 } });
    expect(batch.status).toBe(400);
    expect(batch.body.error).toMatch(/^getBatchPricesHistory: parameter 'end_ts' must be/);
    expect((await call(`${sb.url}/prices-history?market=${token}&startTs=0&endTs=253402300799`)).status).toBe(200);
  });

  it('POST /admin/markets/create answers 400 for a body of null (and creates nothing)', async () => {
    const before = sb.world.markets.length;
    for (const body of ['null', '[]', '5']) {
      const answer = await call(`${sb.url}/admin/markets/create`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      expect(answer.status, body).toBe(400);
      expect(answer.body, body).toEqual({ error: 'admin/markets/create: the body must be a JSON object {"question"?, "tags"?}' });
    }
    expect(sb.world.markets.length).toBe(before);
    expect((await call(`${sb.url}/admin/markets/create`, { json: {} })).status).toBe(200);
  });
});

describe('order items that are not the wire shape', () => {
  const spec = () => ({ market, side: 'BUY', price: 0.11, size: units(market.minOrderSize) }) as const;
  const withOrderField = (item: WireOrderSubmission, name: string, value: unknown): WireOrderSubmission =>
    ({ ...item, order: { ...item.order, [name]: value } });

  it('an amount sent as a JSON number, an unknown order or item field, a wrong JSON type: 400 for the whole batch, nothing placed', async () => {
    const good = alice.sign(spec());
    const cases: [string, unknown, string][] = [
      ['makerAmount number', withOrderField(alice.item(alice.sign(spec())), 'makerAmount', 5_000_000), 'body[1].order.makerAmount must be a decimal string, was 5000000'],
      ['takerAmount number', withOrderField(alice.item(alice.sign(spec())), 'takerAmount', 5), 'body[1].order.takerAmount must be a decimal string, was 5'],
      ['tokenId number', withOrderField(alice.item(alice.sign(spec())), 'tokenId', 12), 'body[1].order.tokenId must be a decimal string, was 12'],
      ['signatureType string', withOrderField(alice.item(alice.sign(spec())), 'signatureType', '0'), 'body[1].order.signatureType must be a JSON integer, was "0"'],
      ['unknown order field', withOrderField(alice.item(alice.sign(spec())), 'feeRateBps', '0'), 'body[1].order.feeRateBps is not a field of an order (fields: salt, maker, signer, tokenId'],
      ['unknown item field', { ...alice.item(alice.sign(spec())), price: '0.11' }, 'body[1].price is not a field of an order item (fields: order, orderType, owner, postOnly, deferExec)'],
      ['postOnly string', { ...alice.item(alice.sign(spec())), postOnly: 'true' }, 'body[1].postOnly must be true or false, was "true"'],
      ['null item', null, 'body[1] must be an order item {order, orderType, owner}, was null'],
    ];
    for (const [label, bad, message] of cases) {
      const before = sb.context.orderLog.entries().length;
      const answer = await alice.l2('POST', '/orders', [alice.item(good), bad]);
      expect(answer.status, label).toBe(400);
      expect(answer.body.error, label).toContain(`Invalid order payload: ${message}`);
      expect(sb.context.orderLog.entries().length, label).toBe(before);
      expect(sb.engine.order(good.orderHash), label).toBeUndefined();
    }
    const single = await alice.l2('POST', '/order', withOrderField(alice.item(alice.sign(spec())), 'makerAmount', 5_000_000));
    expect(single.status).toBe(400);
    expect(single.body).toEqual({ error: 'Invalid order payload: body.order.makerAmount must be a decimal string, was 5000000' });
  });

  it('takes a salt sent as a JSON number (as the official SDK sends it)', async () => {
    const item = alice.item(alice.sign(spec()));
    const answer = await alice.l2('POST', '/orders', [withOrderField(item, 'salt', Number(item.order.salt))]);
    expect(answer.status).toBe(200);
    expect(answer.body[0].errorMsg).not.toMatch(/Invalid order payload/);
  });
});
