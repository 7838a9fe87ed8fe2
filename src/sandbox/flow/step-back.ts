import { MICROS_PER_UNIT, type Micros } from '../../core/fixed.ts';
import { LIQUIDITY_OWNER, type SandboxEngine } from '../trading/sandbox-engine.ts';
import { isFlowAccount } from './flow-accounts.ts';

/**
 * Cancels the sandbox's own resting orders (seeded liquidity, flow agents, episode accounts;
 * never a client's) of one market that `pick` chooses, each seen in the YES frame: a bid (BUY YES
 * or SELL NO) or an ask (SELL YES or BUY NO) at its YES price.
 */
export function cancelOwnOrders(
  engine: SandboxEngine,
  conditionId: string,
  yesToken: string,
  pick: (isBid: boolean, yesPrice: Micros, owner: string) => boolean,
  now: number,
): void {
  const byOwner = new Map<string, string[]>();
  for (const o of engine.openOrders({ conditionId })) {
    if (o.owner !== LIQUIDITY_OWNER && !isFlowAccount(o.owner)) continue;
    const isYes = o.tokenId === yesToken;
    const yesPrice = isYes ? o.price : MICROS_PER_UNIT - o.price;
    const isBid = isYes === (o.side === 'BUY');
    if (!pick(isBid, yesPrice, o.owner)) continue;
    const list = byOwner.get(o.owner);
    if (list) list.push(o.id);
    else byOwner.set(o.owner, [o.id]);
  }
  for (const [owner, ids] of byOwner) engine.cancelOrders(ids, owner, now);
}
