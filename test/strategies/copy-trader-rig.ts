import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxRig } from '../app/run-helpers.ts';

/** What the copy-trader e2e tests share: the market they copy in, and their live config. */

/** An open market of the sandbox with a cent tick and its YES near 0.5 (a leader's FAK a tick through the ask takes that level, and the price can move either way). */
export function copyMarket(rig: SandboxRig, seed: number): { conditionId: string; yes: string; no: string } {
  const m = rig.sandbox.world.markets.find((w) => {
    if (w.closed || !w.acceptingOrders || rig.sandbox.engine.market(w.conditionId)?.tickSize !== 10_000) return false;
    const q = rig.sandbox.engine.quote(w.tokens[0].tokenId);
    return q.bestBid !== undefined && q.bestAsk !== undefined && q.bestBid > 250_000 && q.bestAsk < 750_000;
  });
  if (m === undefined) throw new Error(`the seed-${seed} sandbox has no open market near 0.5`);
  return { conditionId: m.conditionId, yes: m.tokens[0].tokenId, no: m.tokens[1].tokenId };
}

/** Writes a live copy-trader config following `wallets` in one market; returns its path. */
export function writeCopyConfig(rig: SandboxRig, conditionId: string, wallets: string, params: string): string {
  const path = join(rig.dir, 'copy-trader.yaml');
  writeFileSync(
    path,
    [
      'mode: live',
      `venue: { baseUrl: '${rig.sandbox.url}' }`,
      'data:',
      '  transport: ws',
      `  markets: { conditionIds: ['${conditionId}'] }`,
      `  wallets: ${wallets}`,
      'strategies:',
      '  - id: copy',
      '    module: strategies/copy-trader.ts',
      `    params: ${params}`,
      'execution: { maxBatchWaitMs: 20 }',
      `risk: { haltFile: '${join(rig.dir, 'HALT')}' }`,
      'logging: { level: silent }',
      '',
    ].join('\n'),
  );
  return path;
}
