import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { VenueRejectError } from '../../../src/core/errors.ts';
import { Secret } from '../../../src/core/secret.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import { cancelOrder } from '../../../src/venue/actions/cancel-order.ts';
import { getOrCreateApiKey } from '../../../src/venue/actions/get-or-create-api-key.ts';
import { postOrders } from '../../../src/venue/actions/post-orders.ts';
import { withL2Auth } from '../../../src/venue/auth/with-l2-auth.ts';
import { createVenueClient, type VenueClient, type VenueProfile } from '../../../src/venue/client.ts';
import type { OrderParams } from '../../../src/venue/signing/order-builder.ts';
import { venueRestrictionOf, venueRestrictionOfItem } from '../../../src/venue/venue-state.ts';
import { ADDRESS, KEY, signer } from './helpers.ts';

/**
 * Issue 26 point 2: the venue's restart and restricted modes decoded into a typed state, against
 * the sandbox's staged restart over loopback in both wire profiles (425 for the restart, 503 with
 * its body for cancel-only and post-only, Retry-After from the header or the body).
 */

async function refusal(call: Promise<unknown>): Promise<VenueRejectError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VenueRejectError);
  return err as VenueRejectError;
}

for (const profile of ['interface', 'polymarket'] as const satisfies readonly VenueProfile[]) {
  describe(`a staged restart decoded (${profile} profile)`, () => {
    const clock = new SimulatedClock(Date.now());
    let sandbox: RunningSandbox;
    let client: VenueClient;
    let owner: string;
    let market: SandboxMarket;
    let salt = 0;
    const order = (postOnly: boolean) => {
      const params: OrderParams = {
        tokenId: market.tokens[0].tokenId,
        conditionId: market.conditionId,
        price: market.tickSize,
        size: Math.max(market.minOrderSize, 5_000_000),
        side: 'BUY',
        tick: market.tickSize,
        negRisk: market.negRisk,
        orderType: 'GTC',
        postOnly,
        salt: ++salt,
        timestamp: clock.now(),
        clientOrderId: `vs-${salt}`,
      };
      return signer(profile).sign(params);
    };

    beforeAll(async () => {
      sandbox = await startSandbox({ seed: 5, markets: 20, events: 5, profile, clock, flow: { enabled: false }, limits: { enabled: false } });
      const venue = createVenueClient({ baseUrl: sandbox.url, profile, retries: 0, clock });
      const creds = await getOrCreateApiKey(venue, { privateKey: new Secret(KEY) });
      owner = creds.apiKey;
      client = withL2Auth(venue, { address: ADDRESS, credentials: creds });
      market = sandbox.world.markets.find((m) => m.acceptingOrders && !m.closed && m.enableOrderBook && m.tickSize === 10_000)!;
    });
    afterAll(async () => {
      await sandbox.close();
    });

    it('425 on posts and cancels while restarting, then 503 post-only for takers, then open', async () => {
      sandbox.faults.stageRestart(20_000, 30_000);

      const cancel = await refusal(cancelOrder(client, '0x' + '0'.repeat(64)));
      expect(cancel.status).toBe(425);
      expect(venueRestrictionOf(cancel)).toMatchObject({ state: 'restarting', retryAfterMs: 20_000, status: 425 });
      const post = await refusal(postOrders(client, { owner, orders: [order(true)] }));
      expect(venueRestrictionOf(post)).toMatchObject({ state: 'restarting', retryAfterMs: 20_000 });

      clock.advanceBy(20_000);
      const taker = await refusal(postOrders(client, { owner, orders: [order(false)] }));
      expect(taker.status).toBe(503);
      expect(venueRestrictionOf(taker)).toMatchObject({ state: 'postOnly', retryAfterMs: 30_000, status: 503 });
      // post-only orders and cancels pass
      const [maker] = await postOrders(client, { owner, orders: [order(true)] });
      expect(maker).toMatchObject({ kind: 'accepted' });
      const makerId = maker?.orderId ?? '';
      expect((await cancelOrder(client, makerId)).canceled).toEqual([makerId]);

      clock.advanceBy(29_000);
      expect(venueRestrictionOf(await refusal(postOrders(client, { owner, orders: [order(false)] })))).toMatchObject({ state: 'postOnly', retryAfterMs: 1_000 });
      clock.advanceBy(1_000);
      const [open] = await postOrders(client, { owner, orders: [order(false)] });
      expect(open).toMatchObject({ kind: 'accepted' });
      await cancelOrder(client, open?.orderId ?? '');
    });

    it('POST /admin/restart stages one on the sandbox clock; GET says where it is; a bad length is a 400 naming it', async () => {
      const post = (body: unknown) => fetch(`${sandbox.url}/admin/restart`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const staged = (await (await post({ restartSeconds: 2, postOnlySeconds: 3 })).json()) as Record<string, unknown>;
      expect(staged).toMatchObject({ restartingMs: 2_000, postOnlyMs: 3_000, startedAt: clock.now(), phase: { phase: 'restarting', remainingMs: 2_000 } });
      clock.advanceBy(2_500);
      expect(await (await fetch(`${sandbox.url}/admin/restart`)).json()).toMatchObject({ phase: { phase: 'post-only', remainingMs: 2_500 } });
      clock.advanceBy(2_500);
      expect(await (await fetch(`${sandbox.url}/admin/restart`)).json()).toMatchObject({ phase: null });
      const bad = await post({ restartSeconds: -1 });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: string }).error).toContain('restartSeconds');
    });

    it('cancel-only is a 503 the state decodes from (the venue\'s own text in the polymarket profile)', async () => {
      sandbox.faults.set({ mode: 'cancel-only' });
      try {
        const err = await refusal(postOrders(client, { owner, orders: [order(true)] }));
        expect(err.venueMessage).toBe(profile === 'polymarket' ? 'Trading is currently cancel-only. New orders are not accepted, but cancels are allowed.' : 'cancel-only mode: only cancels are allowed');
        expect(venueRestrictionOf(err)).toMatchObject({ state: 'cancelOnly', retryAfterMs: 5_000 });
      } finally {
        sandbox.faults.set({ mode: 'normal' });
      }
    });
  });
}

describe('venueRestrictionOf on answers the sandbox does not give', () => {
  const reject = (status: number, body: { error: string } | string, retryAfterMs?: number) =>
    new VenueRejectError(`POST /orders: ${status}`, status, 'postOrders', typeof body === 'string' ? body : body.error, body, retryAfterMs);

  it('reads the venue\'s texts without a code, and the body\'s Retry-After the transport took', () => {
    expect(venueRestrictionOf(reject(503, { error: 'Trading is currently cancel-only. New orders are not accepted, but cancels are allowed.' }))).toMatchObject({ state: 'cancelOnly' });
    expect(venueRestrictionOf(reject(503, { error: 'Trading is currently disabled. Check polymarket.com for updates' }, 60_000))).toMatchObject({ state: 'restarting', retryAfterMs: 60_000 });
    expect(venueRestrictionOf(reject(503, { error: 'Trading is currently post-only. Only post-only orders and cancels are accepted.' }))).toMatchObject({ state: 'postOnly' });
    expect(venueRestrictionOf(reject(425, 'Too Early'))).toMatchObject({ state: 'restarting', retryAfterMs: undefined });
  });

  it('is undefined for a plain 503, other statuses and other errors', () => {
    expect(venueRestrictionOf(reject(503, { error: 'service unavailable' }))).toBeUndefined();
    expect(venueRestrictionOf(reject(500, { error: 'cancel-only' }))).toBeUndefined();
    expect(venueRestrictionOf(reject(400, { error: 'invalid post-only order: order crosses book' }))).toBeUndefined();
    expect(venueRestrictionOf(new Error('425'))).toBeUndefined();
  });

  it('reads a batch item refused for the mode, not one refused for crossing', () => {
    expect(venueRestrictionOfItem('post-only mode: only post-only orders and cancels are allowed')).toMatchObject({ state: 'postOnly' });
    expect(venueRestrictionOfItem('invalid post-only order: order crosses book')).toBeUndefined();
  });
});
