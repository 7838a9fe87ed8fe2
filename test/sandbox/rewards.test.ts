import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { VenueRejectError } from '../../src/core/errors.ts';
import { DAY_MS, quoteInYesTerms, sampleMarket, shareOf, type RewardQuote } from '../../src/core/rewards.ts';
import { Secret } from '../../src/core/secret.ts';
import { FLOW_MAKER_ACCOUNTS } from '../../src/sandbox/flow/flow-accounts.ts';
import { worldRewardRules } from '../../src/sandbox/rewards/reward-sampler.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../src/sandbox/world/model.ts';
import { getOrCreateApiKey } from '../../src/venue/actions/get-or-create-api-key.ts';
import { getOrderBook } from '../../src/venue/actions/get-order-book.ts';
import { getOrderScoring } from '../../src/venue/actions/get-order-scoring.ts';
import { decodeRewardPercentages, getRewardPercentages } from '../../src/venue/actions/get-reward-percentages.ts';
import { DecodeError } from '../../src/core/errors.ts';
import { SimulatedClock } from '../../src/core/clock.ts';
import { RewardSampler } from '../../src/sandbox/rewards/reward-sampler.ts';
import { sandboxWalletsOf } from '../../src/sandbox/trading/wallets.ts';
import { postOrders } from '../../src/venue/actions/post-orders.ts';
import { withL2Auth } from '../../src/venue/auth/with-l2-auth.ts';
import { createVenueClient, type VenueClient } from '../../src/venue/client.ts';
import { ADDRESS, addressOf, KEY, OTHER_KEY, signer } from '../venue/trading/helpers.ts';

/** The sandbox pays liquidity rewards (docs/rewards.md): sampler, accruals, admin route, order-scoring. */

const SAMPLE_MS = 60_000;

describe('sandbox rewards, profile polymarket, no flow', () => {
  let sb: RunningSandbox;
  let venue: VenueClient;
  let a: VenueClient;
  let b: VenueClient;
  let market: SandboxMarket;
  const ids: { ours: string[]; small: string } = { ours: [], small: '' };

  beforeAll(async () => {
    sb = await startSandbox({ seed: 11, markets: 60, profile: 'polymarket', flow: { enabled: false }, startingBalance: 100_000, rewards: { sampleMs: SAMPLE_MS } });
    // the sampler's own timer samples at every wall-clock minute: stopped, so only this test's samples count
    sb.context.rewards!.stop();
    venue = createVenueClient({ baseUrl: sb.url, profile: 'polymarket', retries: 0 });
    // a reward market whose book has a tight enough spread to quote at its best prices inside the band
    let best: { bid: number; ask: number } | undefined;
    for (const m of sb.world.markets) {
      const rules = worldRewardRules(m);
      if (rules === undefined || m.closed || !m.acceptingOrders || m.negRisk || m.minOrderSize > rules.minSize) continue;
      const book = await getOrderBook(venue, m.tokens[0].tokenId);
      const bid = book.bids[0]?.price;
      const ask = book.asks[0]?.price;
      if (bid === undefined || ask === undefined || bid < 200_000 || ask > 800_000) continue;
      if ((ask - bid) / 2 >= rules.maxSpreadCents * 10_000) continue;
      market = m;
      best = { bid, ask };
      break;
    }
    if (best === undefined) throw new Error('fixture: no reward market with a tight book in seed 11');
    const credsA = await getOrCreateApiKey(venue, { privateKey: new Secret(KEY) });
    const credsB = await getOrCreateApiKey(venue, { privateKey: new Secret(OTHER_KEY) });
    a = withL2Auth(venue, { address: ADDRESS, credentials: credsA });
    b = withL2Auth(venue, { address: addressOf(OTHER_KEY), credentials: credsB });
    const rules = worldRewardRules(market)!;
    const base = { conditionId: market.conditionId, tick: market.tickSize, negRisk: market.negRisk, orderType: 'GTC' as const, timestamp: Date.now(), postOnly: true };
    // A quotes both sides at min_size: a YES bid at the best bid, and the ask side as a NO bid (the complement) at 1 - best ask
    const A = signer('polymarket');
    const ours = await postOrders(a, {
      owner: credsA.apiKey,
      orders: [
        A.sign({ ...base, tokenId: market.tokens[0].tokenId, side: 'BUY', price: best.bid, size: rules.minSize, salt: 1, clientOrderId: 'rw-1' }),
        A.sign({ ...base, tokenId: market.tokens[1].tokenId, side: 'BUY', price: 1_000_000 - best.ask, size: rules.minSize, salt: 2, clientOrderId: 'rw-2' }),
      ],
    });
    expect(ours.map((r) => r.kind)).toEqual(['accepted', 'accepted']);
    ids.ours = ours.map((r) => (r.kind === 'accepted' ? r.orderId : ''));
    // B rests one order a micro-share under min_size at the best bid: it never scores
    const B = signer('polymarket', OTHER_KEY);
    const small = await postOrders(b, {
      owner: credsB.apiKey,
      orders: [B.sign({ ...base, tokenId: market.tokens[0].tokenId, side: 'BUY', price: best.bid, size: rules.minSize - market.minOrderSize / 100, salt: 3, clientOrderId: 'rw-3' })],
    });
    expect(small.map((r) => r.kind)).toEqual(['accepted']);
    ids.small = small[0]!.kind === 'accepted' ? small[0]!.orderId : '';
  });
  afterAll(async () => {
    await sb?.close();
  });

  it('each sample pays the market its daily rate for the sample, split by every maker’s Q_min; ours is our share', () => {
    const rules = worldRewardRules(market)!;
    const sampler = sb.context.rewards!;
    const now = Date.now();
    // the share we expect, from the model over every maker's open orders (seeded liquidity included)
    const makers = new Map<string, RewardQuote[]>();
    for (const o of sb.engine.openOrders({ conditionId: market.conditionId })) {
      const key = o.address.toLowerCase();
      makers.set(key, [...(makers.get(key) ?? []), quoteInYesTerms(o.outcomeIndex, o.side, o.price, o.openSize)]);
    }
    expect(makers.size).toBeGreaterThanOrEqual(3); // the liquidity, A and B
    const expected = shareOf(sampleMarket(rules, sb.engine.book(market.tokens[0].tokenId, now), makers), ADDRESS.toLowerCase());
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(1);
    for (let i = 1; i <= 3; i++) sampler.sample(now + i * SAMPLE_MS);
    const mine = sampler.accruals(ADDRESS).find((x) => x.conditionId === market.conditionId)!;
    expect(mine.scoringSamples).toBe(3);
    expect(mine.reward).toBeCloseTo((3 * rules.dailyRate * expected * SAMPLE_MS) / DAY_MS, 12);
    // every maker of the market together: exactly the rate for three samples
    let all = 0;
    for (const addr of sampler.addresses()) for (const x of sampler.accruals(addr)) if (x.conditionId === market.conditionId) all += x.reward;
    expect(all).toBeCloseTo((3 * rules.dailyRate * SAMPLE_MS) / DAY_MS, 12);
    // below min_size: nothing
    expect(sampler.accruals(addressOf(OTHER_KEY))).toEqual([]);
  });

  it('GET /admin/rewards: settings, the market’s latest sample, each account’s accruals (one with ?address=)', async () => {
    const all = (await (await fetch(`${sb.url}/admin/rewards`)).json()) as { enabled: boolean; sampleMs: number; samples: number; markets: { conditionId: string; dailyRate: number }[]; accounts: { address: string; reward: number }[] };
    expect(all.enabled).toBe(true);
    expect(all.sampleMs).toBe(SAMPLE_MS);
    expect(all.samples).toBeGreaterThanOrEqual(3);
    expect(all.markets.find((m) => m.conditionId === market.conditionId)?.dailyRate).toBe(market.rewards!.dailyRate);
    const one = (await (await fetch(`${sb.url}/admin/rewards?address=${ADDRESS}`)).json()) as typeof all;
    expect(one.accounts).toHaveLength(1);
    expect(one.accounts[0]!.reward).toBeGreaterThan(0);
    expect(one.accounts[0]!.reward).toBe(all.accounts.find((x) => x.address === ADDRESS.toLowerCase())!.reward);
    const bad = await fetch(`${sb.url}/admin/rewards?address=nope`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/'address' must be a 0x address/);
  });

  it('GET /order-scoring (polymarket): our two-sided orders score, one under min_size does not, another key’s order is not ours to ask about', async () => {
    for (const id of ids.ours) expect(await getOrderScoring(a, id)).toBe(true);
    expect(await getOrderScoring(b, ids.small)).toBe(false);
    expect(await getOrderScoring(b, ids.ours[0]!)).toBe(false);
    // under /clob too, and L2 is required
    const clob = withL2Auth(createVenueClient({ baseUrl: `${sb.url}/clob`, profile: 'polymarket', retries: 0 }), { address: ADDRESS, credentials: await getOrCreateApiKey(venue, { privateKey: new Secret(KEY) }) });
    expect(await getOrderScoring(clob, ids.ours[0]!)).toBe(true);
    expect((await fetch(`${sb.url}/order-scoring?order_id=${ids.ours[0]!}`)).status).toBe(401);
  });

  it('GET /rewards/user/percentages: our share of the latest sample in percent, by condition id; only our own wallets', async () => {
    const rules = worldRewardRules(market)!;
    const sampler = sb.context.rewards!;
    const at = sampler.lastSampleAt!;
    // the share the sampler paid us at its latest sample (the accrual of one sample over its rate)
    const mine = sampler.accruals(ADDRESS).find((x) => x.conditionId === market.conditionId)!;
    const paid = (mine.reward / mine.scoringSamples / rules.dailyRate) * (DAY_MS / SAMPLE_MS);
    const got = await getRewardPercentages(a);
    expect([...got.keys()]).toEqual([market.conditionId]);
    expect(got.get(market.conditionId)! / 100).toBeCloseTo(paid, 12);
    expect(got.get(market.conditionId)).toBe(mine.lastShare * 100);
    expect(sampler.lastSampleAt).toBe(at); // the timer is stopped: nothing caught up
    // B's one order is under min_size: it scores nowhere, so no market is listed
    expect(await getRewardPercentages(b)).toEqual(new Map());
    // A's other wallets (by signature type or named) made no order; another key's wallet is refused
    const wallets = sandboxWalletsOf(ADDRESS);
    expect(await getRewardPercentages(a, { signatureType: 1 })).toEqual(new Map());
    expect(await getRewardPercentages(a, { makerAddress: wallets.safe })).toEqual(new Map());
    expect((await getRewardPercentages(a, { makerAddress: ADDRESS.toLowerCase() })).get(market.conditionId)).toBe(got.get(market.conditionId));
    const refused = await getRewardPercentages(b, { makerAddress: ADDRESS }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(VenueRejectError);
    expect((refused as VenueRejectError).status).toBe(403);
    expect((refused as Error).message).toMatch(/'maker_address' 0x[0-9a-fA-F]{40} is not a wallet of the caller's key/);
    // the raw wire: a JSON object of condition id to percent, under /clob too; L2 is required
    const clob = withL2Auth(createVenueClient({ baseUrl: `${sb.url}/clob`, profile: 'polymarket', retries: 0 }), { address: ADDRESS, credentials: await getOrCreateApiKey(venue, { privateKey: new Secret(KEY) }) });
    expect(await getRewardPercentages(clob)).toEqual(got);
    expect((await fetch(`${sb.url}/rewards/user/percentages`)).status).toBe(401);
  });

  it('the sampler catches up a due sample a reader asks for before its timer fires, and never samples an instant twice', () => {
    const start = Math.ceil(Date.now() / 1000) * 1000 + 250;
    const clock = new SimulatedClock(start);
    const sampler = new RewardSampler(sb.world, sb.engine, clock, { sampleMs: 1000 });
    sampler.catchUp(start); // not running: nothing
    expect(sampler.samples).toBe(0);
    sampler.start();
    sampler.catchUp(start + 500); // the latest multiple (start - 250) is before the start: nothing
    expect(sampler.samples).toBe(0);
    // a reader at +800 ms, the timer's callback for the instant at +750 not yet run
    sampler.catchUp(start + 800);
    expect(sampler.samples).toBe(1);
    expect(sampler.lastSampleAt).toBe(start + 750);
    expect(sampler.sharesOf(ADDRESS).get(market.conditionId)).toBeGreaterThan(0);
    clock.advanceTo(start + 900); // the timer's callback for the same instant: not sampled again
    expect(sampler.samples).toBe(1);
    sampler.catchUp(start + 1_200);
    expect(sampler.samples).toBe(1);
    clock.advanceTo(start + 1_760); // the next instant, by the timer
    expect(sampler.samples).toBe(2);
    expect(sampler.lastSampleAt).toBe(start + 1_750);
    sampler.stop();
  });
});

describe('GET /rewards/user/percentages: the wire', () => {
  it("decodes the venue documentation's example; refuses what is not a map of condition id to percent", () => {
    // docs.polymarket.com/api-reference/rewards/get-reward-percentages-for-user, its example answer
    const example = JSON.parse(
      '{"0x296ea2f3ad438ce7ead77f40d0159bf3e5d8be146f6f615fa253b00e02243f5c": 20, "0xbd31dc8a20211944f6b70f31557f1001557b59905b7738480ca09bd4532f84af": 20}',
    ) as unknown;
    expect(decodeRewardPercentages(example)).toEqual(
      new Map([
        ['0x296ea2f3ad438ce7ead77f40d0159bf3e5d8be146f6f615fa253b00e02243f5c', 20],
        ['0xbd31dc8a20211944f6b70f31557f1001557b59905b7738480ca09bd4532f84af', 20],
      ]),
    );
    expect(decodeRewardPercentages({})).toEqual(new Map());
    expect(decodeRewardPercentages({ ['0x' + 'a'.repeat(64)]: 0.123456 }).get('0x' + 'a'.repeat(64))).toBe(0.123456);
    for (const bad of [[], null, '20', { ['0x' + 'a'.repeat(64)]: '20' }, { ['0x' + 'a'.repeat(64)]: 101 }, { ['0x' + 'a'.repeat(64)]: -1 }, { notAnId: 20 }]) {
      expect(() => decodeRewardPercentages(bad), JSON.stringify(bad)).toThrow(DecodeError);
    }
    expect(() => decodeRewardPercentages({ ['0x' + 'a'.repeat(64)]: 101 })).toThrow(/rewards\.user\.percentages\.0xa+: expected a percent from 0 to 100, got number 101/);
  });
});

describe('sandbox rewards with the synthetic flow', () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ seed: 5, markets: 30, flow: { enabled: true, intensity: 2 }, rewards: { sampleMs: 50 } });
  });
  afterAll(async () => {
    await sb?.close();
  });

  it('flow makers are sampled and paid like anyone (our share is a real share); the interface profile has no /order-scoring', async () => {
    const flowMakers = new Set(FLOW_MAKER_ACCOUNTS.map((f) => f.address.toLowerCase()));
    await vi.waitFor(() => expect(sb.context.rewards!.addresses().some((x) => flowMakers.has(x))).toBe(true), { timeout: 20_000, interval: 50 });
    expect((await fetch(`${sb.url}/order-scoring?order_id=0x01`)).status).toBe(404);
  });

  it('the interface profile serves GET /rewards/user/percentages too (L2): a wallet resting nothing has no market listed', async () => {
    const venue = createVenueClient({ baseUrl: sb.url, retries: 0 });
    const ours = withL2Auth(venue, { address: ADDRESS, credentials: await getOrCreateApiKey(venue, { privateKey: new Secret(KEY) }) });
    // we rest nothing: no market listed
    expect(await getRewardPercentages(ours)).toEqual(new Map());
    expect((await fetch(`${sb.url}/rewards/user/percentages`)).status).toBe(401);
  });
});
