import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { badRequest, forbidden } from '../http-error.ts';
import { authenticateL2 } from '../trading/auth.ts';
import { checkedQuery, intOf, stringOf } from './query.ts';
import { worldRewardRules } from '../rewards/reward-sampler.ts';
import { isAddress } from '../../venue/signing/address.ts';

/**
 * The liquidity rewards the sandbox pays (docs/rewards.md):
 * - `GET /admin/rewards[?address=0x..]` (admin, loopback): the sampler's settings and counts, each
 *   reward market's latest sample, and every scoring account's accruals by market (only the
 *   named address with `address`). Rewards are USDC as JSON numbers, unrounded.
 * - `GET /order-scoring?order_id=` (trading group, L2, profile `polymarket` only, as the venue
 *   serves it): `{"scoring": true|false}`, whether the caller's order scores now. An order the
 *   caller does not own, or that the sandbox does not know, is not scoring.
 * - `GET /rewards/user/percentages[?signature_type=&maker_address=]` (trading group, L2, both
 *   profiles, as the venue serves it): `{"<condition_id>": <percent 0-100>, ...}`, the caller's
 *   share of each reward market at the sampler's latest sample (the due one taken first when its
 *   timer is a moment late). Only markets where the wallet scored are listed. The wallet is the
 *   caller's own: by `signature_type` (0 the key itself, the default; 1 proxy, 2 safe, 3 deposit
 *   wallet), or `maker_address` when it is one of those; another key's wallet is refused (403).
 */
export function registerRewardAdminRoute(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/admin/rewards', { config: { admin: true } }, (request) => {
    const address = (request.query as Record<string, string | undefined>)['address'];
    if (address !== undefined && !isAddress(address)) throw badRequest(`/admin/rewards: 'address' must be a 0x address, was ${JSON.stringify(address.slice(0, 80))}`);
    const sampler = ctx.rewards;
    if (sampler === undefined) return { enabled: false };
    const addresses = address === undefined ? sampler.addresses() : [address.toLowerCase()];
    return {
      enabled: true,
      sampleMs: sampler.sampleMs,
      samples: sampler.samples,
      lastSampleAt: sampler.lastSampleAt ?? null,
      markets: sampler.marketStates().map((s) => {
        const m = ctx.world.marketByConditionId(s.conditionId);
        const rules = m === undefined ? undefined : worldRewardRules(m);
        return {
          conditionId: s.conditionId,
          dailyRate: rules?.dailyRate ?? 0,
          minSize: m?.rewards?.minSize ?? 0,
          maxSpread: m?.rewards?.maxSpread ?? 0,
          samples: s.samples,
          lastMid: s.lastMid === undefined ? null : s.lastMid / 1_000_000,
          lastTotalScore: s.lastTotal,
        };
      }),
      accounts: addresses.map((a) => {
        const markets = sampler.accruals(a);
        let reward = 0;
        for (const x of markets) reward += x.reward;
        return { address: a, reward, markets: markets.map((x) => ({ conditionId: x.conditionId, reward: x.reward, scoringSamples: x.scoringSamples, lastShare: x.lastShare })) };
      }),
    };
  });
}

/** `GET /order-scoring` on the trading group (root and `/clob`), in profile `polymarket` only. */
export function registerOrderScoringRoute(app: FastifyInstance, ctx: SandboxContext): void {
  if (ctx.profile !== 'polymarket') return;
  app.get('/order-scoring', { config: { routeId: 'getOrderScoring' } }, (request) => {
    const caller = authenticateL2(ctx, request);
    const query = checkedQuery('getOrderScoring', request);
    const id = stringOf(query, 'order_id') ?? '';
    const order = ctx.engine.order(id) ?? ctx.engine.order(id.toLowerCase());
    if (order === undefined || order.owner !== caller.apiKey || ctx.rewards === undefined) return { scoring: false };
    return { scoring: ctx.rewards.scoring(order, ctx.clock.now()) };
  });
}

/** `GET /rewards/user/percentages` on the trading group (root and `/clob`), in both profiles. */
export function registerRewardPercentagesRoute(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/rewards/user/percentages', { config: { routeId: 'getRewardPercentages' } }, (request) => {
    const caller = authenticateL2(ctx, request);
    const query = checkedQuery('getRewardPercentages', request);
    const signatureType = intOf(query, 'signature_type', 0);
    const named = stringOf(query, 'maker_address');
    let wallet: string | undefined;
    if (named !== undefined) {
      const owned = ctx.wallets.open(caller.address);
      wallet = [owned.owner, owned.proxy, owned.safe, owned.deposit].find((w) => w.toLowerCase() === named.toLowerCase());
      if (wallet === undefined) throw forbidden(`getRewardPercentages: 'maker_address' ${named} is not a wallet of the caller's key ${caller.address}`);
    } else {
      wallet = ctx.wallets.walletFor(caller.address, signatureType);
      if (wallet === undefined) throw badRequest(`getRewardPercentages: 'signature_type' must be 0, 1, 2 or 3, was ${signatureType}`);
    }
    const out: Record<string, number> = {};
    const sampler = ctx.rewards;
    if (sampler === undefined) return out;
    sampler.catchUp(ctx.clock.now());
    for (const [conditionId, share] of sampler.sharesOf(wallet)) out[conditionId] = share * 100;
    return out;
  });
}
