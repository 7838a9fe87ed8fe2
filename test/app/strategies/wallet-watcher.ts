/**
 * Test-only strategy: notes every followed wallet's trade it hears (per `tag` param, in a
 * process-wide registry, `walletSightings`), with the clock time it heard it.
 */
import { z } from 'zod';
import { defineStrategy } from '../../../src/strategy/index.ts';
import type { WalletTrade } from '../../../src/core/types.ts';

const Params = z.object({ tag: z.string() }).strict();

const REGISTRY = Symbol.for('clobot.test.wallet-watcher');

export function walletSightings(tag: string): { trade: WalletTrade; heardAt: number }[] {
  const g = globalThis as { [REGISTRY]?: Map<string, { trade: WalletTrade; heardAt: number }[]> };
  const all = (g[REGISTRY] ??= new Map());
  if (!all.has(tag)) all.set(tag, []);
  return all.get(tag)!;
}

export default defineStrategy({
  name: 'wallet-watcher',
  params: Params,
  onWalletTrade({ ctx, trade }) {
    walletSightings(ctx.params.tag).push({ trade, heardAt: ctx.clock.now() });
  },
});
