import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { formatMicros, parseMicros } from '../../../src/core/fixed.ts';
import type { SandboxProfile } from '../../../src/sandbox/profile.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import { ERR_MAKER_NOT_CONTROLLED } from '../../../src/sandbox/trading/messages.ts';
import { sandboxWalletsOf } from '../../../src/sandbox/trading/wallets.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import { ERR_INVALID_PAYLOAD } from '../../../src/sim/venue-messages.ts';
import { pickMarket, send, TestTrader, top, units } from './harness.ts';

/**
 * Wallet ownership (issue 28 point 1): each signing key controls its own proxy, safe and deposit
 * wallet (trading/wallets.ts); account B, signing with its own key, can place, cancel and read
 * nothing on A's wallets, in either profile, while A trades through its proxy as before. In
 * profile `polymarket` deposit-wallet (type 3) orders are verified as the wallet's EIP-1271
 * check does, and a tampered wrapped signature is refused.
 */

const NOW_MS = Date.UTC(2026, 10, 20, 12, 0, 0);

for (const profile of ['interface', 'polymarket'] as const satisfies readonly SandboxProfile[]) {
  describe(`wallet ownership, profile ${profile}`, () => {
    const clock = new SimulatedClock(NOW_MS);
    let sb: RunningSandbox;
    let aProxy: TestTrader;
    let aSafe: TestTrader;
    let b: TestTrader;
    let bOnAProxy: TestTrader;
    let bOnASafe: TestTrader;
    let bOnAEoa: TestTrader;
    let market: SandboxMarket;
    let restingId: string;
    let tradedId: string;
    const KEY_A = 0x41;
    const KEY_B = 0x42;

    beforeAll(async () => {
      sb = await startSandbox({ flow: { enabled: false }, seed: 9, markets: 120, events: 24, clock, profile, limits: { enabled: false } });
      aProxy = await new TestTrader(sb.url, profile, clock, KEY_A, { wallet: 'proxy' }).login();
      aSafe = await new TestTrader(sb.url, profile, clock, KEY_A, { wallet: 'safe' }).login();
      b = await new TestTrader(sb.url, profile, clock, KEY_B, { wallet: 'proxy' }).login();
      const aWallets = sandboxWalletsOf(aProxy.address);
      // B's key, naming A's wallets (and A's key itself) as maker
      bOnAProxy = await new TestTrader(sb.url, profile, clock, KEY_B, { signatureType: 1, maker: aWallets.proxy }).login();
      bOnASafe = await new TestTrader(sb.url, profile, clock, KEY_B, { signatureType: 2, maker: aWallets.safe }).login();
      bOnAEoa = await new TestTrader(sb.url, profile, clock, KEY_B, { signatureType: 1, maker: aWallets.owner }).login();
      market = pickMarket(sb, { minSpreadTicks: 3 });
      const { bid, ask } = top(sb, market);
      const size = units(market.minOrderSize);
      const resting = await aProxy.post({ market, side: 'BUY', price: units(bid - market.tickSize), size });
      expect(resting.body[0]).toMatchObject({ success: true, status: 'live' });
      restingId = resting.body[0].orderID;
      const taken = await aProxy.post({ market, side: 'BUY', price: units(ask), size, orderType: 'FAK' });
      expect(taken.body[0]).toMatchObject({ success: true, status: 'matched' });
      tradedId = taken.body[0].orderID;
    });
    afterAll(async () => {
      await sb.close();
    });

    it('lists each key\'s wallets on the admin route, created with its API key, deterministic from the key', async () => {
      const all = (await send(`${sb.url}/admin/wallets`, 'GET', {})).body;
      const a = sandboxWalletsOf(aProxy.address);
      expect(all).toEqual(expect.arrayContaining([a, sandboxWalletsOf(b.address)]));
      expect(new Set([a.owner, a.proxy, a.safe, a.deposit]).size).toBe(4);
      expect(aProxy.signer.maker).toBe(a.proxy);
      const one = (await send(`${sb.url}/admin/wallets?owner=${aProxy.address.toLowerCase()}`, 'GET', {})).body;
      expect(one).toEqual([a]);
      expect((await send(`${sb.url}/admin/wallets?owner=nothex`, 'GET', {})).status).toBe(400);
    });

    it('A trades through its proxy and its safe: the funds are the wallets\'', async () => {
      const proxyFunds = (await send(`${sb.url}/admin/balances?address=${aProxy.signer.maker}`, 'GET', {})).body;
      expect(proxyFunds.opened).toBe(true);
      expect(parseMicros(proxyFunds.collateralReserved)).toBeGreaterThan(0);
      expect((await send(`${sb.url}/admin/balances?address=${aProxy.address}`, 'GET', {})).body.opened).toBe(false);
      const { bid } = top(sb, market);
      const safe = await aSafe.post({ market, side: 'BUY', price: units(bid - 2 * market.tickSize), size: units(market.minOrderSize) });
      expect(safe.body[0]).toMatchObject({ success: true, status: 'live' });
      expect(await aSafe.l2('DELETE', '/order', { orderID: safe.body[0].orderID })).toMatchObject({ status: 200, body: { canceled: [safe.body[0].orderID] } });
    });

    it('POST /orders and POST /order: B cannot place on A\'s proxy, safe or key', async () => {
      const { bid } = top(sb, market);
      const spec = { market, side: 'BUY' as const, price: units(bid - market.tickSize), size: units(market.minOrderSize) };
      for (const trader of [bOnAProxy, bOnASafe, bOnAEoa]) {
        const batch = await trader.post(spec);
        expect(batch.body[0]).toMatchObject({ success: false, errorMsg: ERR_MAKER_NOT_CONTROLLED });
        const one = await trader.l2('POST', '/order', trader.item(trader.sign(spec)));
        expect(one.body).toMatchObject({ success: false, errorMsg: ERR_MAKER_NOT_CONTROLLED });
      }
      // the same key through its own wallet is fine
      expect((await b.post(spec)).body[0]).toMatchObject({ success: true });
      const aFunds = (await send(`${sb.url}/admin/balances?address=${aProxy.signer.maker}`, 'GET', {})).body;
      expect(aFunds.tokens.length).toBe(1); // only A's own FAK fill
    });

    it('DELETE /order, /orders, /cancel-all, /cancel-market-orders: B cancels nothing of A\'s', async () => {
      const mine = (id: string): Promise<boolean> => aProxy.l2('GET', `/data/order/${id}`).then((r) => r.status === 200 && r.body.status !== 'CANCELED');
      for (const trader of [b, bOnAProxy]) {
        expect((await trader.l2('DELETE', '/order', { orderID: restingId })).body.canceled).toEqual([]);
        expect((await trader.l2('DELETE', '/orders', [restingId])).body.canceled).toEqual([]);
        expect((await trader.l2('DELETE', '/cancel-market-orders', { market: market.conditionId })).body.canceled).not.toContain(restingId);
        expect((await trader.l2('DELETE', '/cancel-all')).body.canceled).not.toContain(restingId);
        expect(await mine(restingId)).toBe(true);
      }
    });

    it('GET /data/order/:id, /data/orders, /data/trades: B reads none of A\'s', async () => {
      expect((await b.l2('GET', `/data/order/${restingId}`)).status).toBe(404);
      expect((await aProxy.l2('GET', `/data/order/${restingId}`)).status).toBe(200);
      const orders = (await b.l2('GET', '/data/orders')).body.data.map((o: { id: string }) => o.id);
      expect(orders).not.toContain(restingId);
      expect((await aProxy.l2('GET', '/data/orders')).body.data.map((o: { id: string }) => o.id)).toContain(restingId);
      const trades = (await b.l2('GET', `/data/trades?maker=${aProxy.signer.maker}`, undefined, { mount: '/clob' })).body;
      const rows: { taker_order_id: string }[] = trades.data ?? trades;
      expect(rows.some((t) => t.taker_order_id === tradedId)).toBe(false);
      const aTrades = (await aProxy.l2('GET', '/data/trades', undefined, { mount: '/clob' })).body;
      expect((aTrades.data ?? aTrades).some((t: { taker_order_id: string }) => t.taker_order_id === tradedId)).toBe(true);
    });

    it('GET /balance-allowance: each signature type answers the caller\'s own wallet, never one a refused order named', async () => {
      const balance = (t: TestTrader, type: number): Promise<string> =>
        t.l2('GET', `/balance-allowance?asset_type=COLLATERAL&signature_type=${type}`).then((r) => r.body.balance as string);
      const start = formatMicros(sb.engine.ledger.startingCollateral);
      const aProxyFunds = (await send(`${sb.url}/admin/balances?address=${aProxy.signer.maker}`, 'GET', {})).body;
      const aHas = String(parseMicros(aProxyFunds.collateral) + parseMicros(aProxyFunds.collateralReserved));
      expect(await balance(aProxy, 1)).toBe(aHas);
      // bOnAProxy's refused orders named A's proxy: B still reads only its own proxy
      const bProxyFunds = (await send(`${sb.url}/admin/balances?address=${b.signer.maker}`, 'GET', {})).body;
      expect(await balance(bOnAProxy, 1)).toBe(String(parseMicros(bProxyFunds.collateral) + parseMicros(bProxyFunds.collateralReserved)));
      expect(await balance(bOnAProxy, 1)).not.toBe(aHas);
      expect(await balance(b, 2)).toBe(String(parseMicros(start)));
      expect(await balance(b, 3)).toBe(String(parseMicros(start)));
      expect(await balance(b, 0)).toBe(String(parseMicros(start)));
      const conditional = await bOnAProxy.l2('GET', `/balance-allowance?asset_type=CONDITIONAL&token_id=${market.tokens[0].tokenId}&signature_type=1`);
      expect(conditional.body.balance).toBe('0');
      expect((await aProxy.l2('GET', `/balance-allowance?asset_type=CONDITIONAL&token_id=${market.tokens[0].tokenId}&signature_type=1`)).body.balance).not.toBe('0');
      expect((await b.l2('GET', '/balance-allowance?asset_type=COLLATERAL&signature_type=7')).status).toBe(400);
    });

    it(profile === 'polymarket' ? 'deposit wallet (type 3): accepted from its owner, a tampered signature and another key refused' : 'deposit wallet (type 3) is refused in this profile', async () => {
      const aDeposit = await new TestTrader(sb.url, profile, clock, KEY_A, { wallet: 'deposit' }).login();
      const { bid } = top(sb, market);
      const spec = { market, side: 'BUY' as const, price: units(bid - market.tickSize), size: units(market.minOrderSize) };
      const signed = aDeposit.sign(spec);
      if (profile === 'interface') {
        expect((await aDeposit.l2('POST', '/orders', [aDeposit.item(signed)])).body[0]).toMatchObject({ success: false, errorMsg: ERR_INVALID_PAYLOAD });
        return;
      }
      const tamper = (at: number): ReturnType<TestTrader['item']> => {
        const item = aDeposit.item(aDeposit.sign(spec));
        const sig = item.order.signature;
        const i = 2 + at * 2;
        const flipped = (parseInt(sig.slice(i, i + 2), 16) ^ 0x01).toString(16).padStart(2, '0');
        item.order = { ...item.order, signature: sig.slice(0, i) + flipped + sig.slice(i + 2) };
        return item;
      };
      const unwrapped = aDeposit.item(aDeposit.sign(spec));
      unwrapped.order = { ...unwrapped.order, signature: unwrapped.order.signature.slice(0, 132) };
      const answer = await aDeposit.l2('POST', '/orders', [aDeposit.item(signed), tamper(10), tamper(70), tamper(100), tamper(200), unwrapped]);
      expect(answer.body.map((r: { errorMsg: string }) => r.errorMsg)).toEqual(['', 'invalid signature', 'invalid signature', 'invalid signature', 'invalid signature', 'invalid signature']);
      expect(answer.body[0]).toMatchObject({ success: true, orderID: signed.orderHash });
      const funds = (await send(`${sb.url}/admin/balances?address=${aDeposit.signer.maker}`, 'GET', {})).body;
      expect(parseMicros(funds.collateralReserved)).toBeGreaterThan(0);
      // B's key signing for A's deposit wallet: the wrapped signature recovers to B, not the owner
      const bOnADeposit = await new TestTrader(sb.url, profile, clock, KEY_B, { signatureType: 3, maker: aDeposit.signer.maker }).login();
      expect((await bOnADeposit.post(spec)).body[0]).toMatchObject({ success: false, errorMsg: 'invalid signature' });
      // B's own deposit wallet works for B
      const bDeposit = await new TestTrader(sb.url, profile, clock, KEY_B, { wallet: 'deposit' }).login();
      expect((await bDeposit.post(spec)).body[0]).toMatchObject({ success: true });
      const bFunds = (await send(`${sb.url}/admin/balances?address=${bDeposit.signer.maker}`, 'GET', {})).body;
      expect(parseMicros(bFunds.collateralReserved)).toBeGreaterThan(0);
      expect(await bDeposit.l2('GET', '/balance-allowance?asset_type=COLLATERAL&signature_type=3').then((r) => r.body.balance)).toBe(
        String(sb.engine.ledger.startingCollateral),
      );
    });
  });
}
