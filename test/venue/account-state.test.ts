import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, DecodeError, ParameterError, VenueRejectError } from '../../src/core/errors.ts';
import { Secret } from '../../src/core/secret.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../src/sandbox/world/model.ts';
import { getBalanceAllowance } from '../../src/venue/actions/get-balance-allowance.ts';
import { getOrCreateApiKey } from '../../src/venue/actions/get-or-create-api-key.ts';
import { getOrderBook } from '../../src/venue/actions/get-order-book.ts';
import { getAllPositions, getPositions } from '../../src/venue/actions/get-positions.ts';
import { postOrders } from '../../src/venue/actions/post-orders.ts';
import { withL2Auth } from '../../src/venue/auth/with-l2-auth.ts';
import { createVenueClient, type VenueClient } from '../../src/venue/client.ts';
import { decodeBalanceAllowance, decodePositions } from '../../src/venue/decode.ts';
import { ADDRESS, addressOf, KEY, OTHER_KEY, signer } from './trading/helpers.ts';

/** A well-formed wallet address, so the parameter under test is the one refused. */
const USER = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';

/** The account-state routes (docs/protocol-additions.md): decoders on the venue's shapes, then client and sandbox together. */

const fixture = (path: string): unknown => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const MAX_UINT256 = 2n ** 256n - 1n;

describe('decoders', () => {
  it('GET /balance-allowance, CLOB V2 shape: balance in base units, allowances per exchange as bigint', () => {
    const b = decodeBalanceAllowance(fixture('./fixtures/balance_allowance_v2.json'));
    expect(b.balance).toBe(10_000_000_000);
    expect(b.allowances).toEqual({
      '0xE111180000d2663C0091e4f400237545B87B996B': MAX_UINT256,
      '0xe2222d279d744050d28e00520010520000310F59': MAX_UINT256,
    });
  });

  it('GET /balance-allowance, older shape with one allowance', () => {
    expect(decodeBalanceAllowance(fixture('./fixtures/balance_allowance_v1.json'))).toEqual({ balance: 25_000_000, allowances: { '': 0n } });
  });

  it('a balance that is not an integer of base units is a DecodeError naming the field', () => {
    expect(() => decodeBalanceAllowance({ balance: '1.5', allowances: {} })).toThrow(DecodeError);
    expect(() => decodeBalanceAllowance({ balance: '1.5' })).toThrow(/balance-allowance\.balance/);
    expect(() => decodeBalanceAllowance({ balance: '1', allowances: { '0xabc': -1 } })).toThrow(/allowances\.0xabc/);
  });

  it('GET /positions (../shared fixture): sizes and prices to Micros, values kept as numbers', () => {
    const positions = decodePositions(fixture('../../../shared/fixtures/venue/data_api_positions.json'));
    expect(positions.length).toBeGreaterThanOrEqual(3);
    expect(positions[0]).toMatchObject({
      proxyWallet: '0x56687bf447db6ffa42ffe2204a05edaa20f55839',
      asset: '71321045863084981365469005770620412523470745398083994982746259498689308907982',
      conditionId: '0xc8f1cf5d4f26e0fd9c8fe89f2a7b3263b902cf14fde7bfccef525753bb492e47',
      size: 150_500_000,
      avgPrice: 550_000,
      curPrice: 600_000,
      currentValue: 90.3,
      outcomeIndex: 0,
      negativeRisk: false,
      endDate: Date.parse('2026-12-31T00:00:00Z'),
    });
    expect(positions[1]?.size).toBe(0);
  });

  it('a position without a size is refused, naming it', () => {
    expect(() => decodePositions([{ proxyWallet: '0x1', asset: '1', conditionId: '0x2' }])).toThrow(/positions\[0\]\.size/);
  });
});

describe('client parameters', () => {
  const client = createVenueClient({ baseUrl: 'http://127.0.0.1:9', retries: 0 });
  it('CONDITIONAL without a token id, and a positions query without a user, are refused before sending', async () => {
    await expect(getBalanceAllowance(client, { assetType: 'CONDITIONAL', tokenId: '' })).rejects.toThrow(ParameterError);
    await expect(getPositions(client, { user: '' })).rejects.toThrow(/user/);
    await expect(getPositions(client, { user: USER, limit: 501 })).rejects.toThrow(/limit/);
  });
});

const TICK = 10_000;

for (const profile of ['interface', 'polymarket'] as const) {
  describe(`against the sandbox, profile ${profile}`, () => {
    let sandbox: RunningSandbox;
    let venue: VenueClient;
    let a: VenueClient;
    let b: VenueClient;
    let market: SandboxMarket;
    let ask: number;

    beforeAll(async () => {
      sandbox = await startSandbox({ seed: 11, markets: 20, profile, flow: { enabled: false }, startingBalance: 1_000 });
      venue = createVenueClient({ baseUrl: sandbox.url, profile, retries: 0 });
      for (const m of sandbox.world.markets) {
        if (!m.acceptingOrders || m.closed || !m.enableOrderBook || m.tickSize !== TICK || m.minOrderSize > 5_000_000) continue;
        const book = await getOrderBook(venue, m.tokens[0].tokenId);
        if (book.asks[0] !== undefined && book.asks[0].price < 900_000) {
          market = m;
          ask = book.asks[0].price;
          break;
        }
      }
      const credsA = await getOrCreateApiKey(venue, { privateKey: new Secret(KEY) });
      const credsB = await getOrCreateApiKey(venue, { privateKey: new Secret(OTHER_KEY) });
      a = withL2Auth(venue, { address: ADDRESS, credentials: credsA });
      b = withL2Auth(venue, { address: addressOf(OTHER_KEY), credentials: credsB });
      // A buys 10 at the ask (a taker fill) and rests a bid of 5 below it
      const A = signer(profile);
      const base = { tokenId: market.tokens[0].tokenId, conditionId: market.conditionId, tick: TICK, negRisk: market.negRisk, orderType: 'GTC' as const, timestamp: Date.now() };
      const results = await postOrders(a, {
        owner: credsA.apiKey,
        orders: [
          A.sign({ ...base, side: 'BUY', price: ask, size: 10_000_000, salt: 1, clientOrderId: 'acct-1' }),
          A.sign({ ...base, side: 'BUY', price: 100_000, size: 5_000_000, salt: 2, clientOrderId: 'acct-2', postOnly: true }),
        ],
      });
      expect(results.map((r) => r.kind)).toEqual(['accepted', 'accepted']);
    });
    afterAll(async () => {
      await sandbox?.close();
    });

    it('COLLATERAL: the wallet’s funds, what its resting BUY promises included; the exchanges may spend without limit', async () => {
      const bal = await getBalanceAllowance(a, { assetType: 'COLLATERAL', signatureType: 0 });
      const paid = Math.round((10 * ask));
      expect(bal.balance).toBe(1_000_000_000 - paid);
      expect(Object.values(bal.allowances)).toEqual([MAX_UINT256, MAX_UINT256]);
      // an account that never traded holds the starting collateral
      expect((await getBalanceAllowance(b, { assetType: 'COLLATERAL' })).balance).toBe(1_000_000_000);
    });

    it('CONDITIONAL: the tokens held of one id', async () => {
      expect((await getBalanceAllowance(a, { assetType: 'CONDITIONAL', tokenId: market.tokens[0].tokenId })).balance).toBe(10_000_000);
      expect((await getBalanceAllowance(a, { assetType: 'CONDITIONAL', tokenId: market.tokens[1].tokenId })).balance).toBe(0);
    });

    it('needs L2 auth, and refuses CONDITIONAL without token_id with a 400 naming it', async () => {
      await expect(getBalanceAllowance(venue, { assetType: 'COLLATERAL' })).rejects.toThrow(AuthError);
      // the sandbox checks the query once the caller is known: the same rule's message, as a 400
      const sent = await a.send({ route: 'getBalanceAllowance', query: { asset_type: 'CONDITIONAL' } }).catch((e: unknown) => e);
      expect(sent).toBeInstanceOf(VenueRejectError);
      expect(sent).toMatchObject({ status: 400 });
      expect(String(sent)).toMatch(/token_id/);
      const err = await getBalanceAllowance(a, { assetType: 'CONDITIONAL', tokenId: '' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ParameterError);
    });

    it('GET /positions lists the wallet’s tokens in the analytics shape, no auth needed', async () => {
      const positions = await getAllPositions(venue, ADDRESS);
      expect(positions).toHaveLength(1);
      const p = positions[0]!;
      const token = market.tokens[0];
      expect(p.asset).toBe(profile === 'polymarket' ? token.tokenId : `${market.conditionId}:0`);
      expect(p).toMatchObject({ conditionId: market.conditionId, outcomeIndex: 0, size: 10_000_000, avgPrice: ask, title: market.question });
      expect(await getPositions(venue, { user: addressOf(OTHER_KEY) })).toEqual([]);
      // the default size threshold is 1 share; above the holding nothing is listed
      expect(await getPositions(venue, { user: ADDRESS, sizeThreshold: 11 })).toEqual([]);
      expect(await getPositions(venue, { user: ADDRESS, market: [market.conditionId] })).toHaveLength(1);
    });

    it('the /clob and /data mounts serve the same routes', async () => {
      const data = createVenueClient({ baseUrl: `${sandbox.url}/data`, profile, retries: 0 });
      expect(await getPositions(data, { user: ADDRESS })).toHaveLength(1);
      const res = await fetch(`${sandbox.url}/clob/balance-allowance?asset_type=COLLATERAL`);
      expect(res.status).toBe(401);
    });
  });
}
