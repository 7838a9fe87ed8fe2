import { fileURLToPath } from 'node:url';
import { syntheticEvents, syntheticHeader, type SyntheticOptions } from '../../src/backtest/synthetic-recording.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';
import type { TempDir } from '../backtest/helpers.ts';

/**
 * A strategy with one directional param, `lean` in [-1, 1]: above 0.1 it buys YES once per market
 * (more shares the larger it is), below -0.1 it buys NO, in between it does nothing. On a
 * recording whose mids rise then fall (`trends: [0.5, -0.5]`), a large lean fits the first half
 * and loses in the second. `cue: true` says on stderr when a run starts (a test's cue for Ctrl-C).
 */
const STRATEGY_API = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

export function leanStrategy(cue = false): string {
  return `import { defineStrategy, qty, z } from ${JSON.stringify(STRATEGY_API)};
const Params = z.object({ lean: z.number().min(-1).max(1).default(0), size: z.number().positive().default(20) }).strict();
export default defineStrategy({
  name: 'lean',
  params: Params,
  onStart() {
    ${cue ? "process.stderr.write('cue: run started\\n');" : ''}
  },
  onBook({ ctx, market }) {
    const lean = ctx.params.lean;
    if (Math.abs(lean) < 0.1) return undefined;
    if (market.outcomeIndex !== (lean > 0 ? 0 : 1) || market.bestAsk === undefined) return undefined;
    if (ctx.openOrders(market.tokenId).length > 0 || ctx.position(market.tokenId).size > 0) return undefined;
    ctx.log.info('lean buys', { tokenId: market.tokenId, lean });
    return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price: market.bestAsk, size: qty(String(Math.round(Math.abs(lean) * ctx.params.size) + 5)), orderType: 'FAK' };
  },
});
`;
}

export const LEAN_CONFIG = `mode: backtest
name: lean
data:
  markets: { filter: { maxCount: 2 } }
strategies:
  - id: lean
    module: ./lean.ts
    params: { lean: 0 }
`;

export const LEAN_SPACE = 'params:\n  lean: { min: -1, max: 1 }\n  size: { min: 5, max: 50, step: 5 }\n';

/** Rises in the first half, falls in the second. */
export const REGIMES: SyntheticOptions = { seed: 3, markets: 2, depth: 5, events: 3000, meanGapMs: 100, moveShare: 0.1, tradeShare: 0.05, trends: [0.5, -0.5] };

/** Writes lean.ts, lean.yaml, space.yaml and a recording into `tmp`; returns their paths. */
export async function leanFixture(tmp: TempDir, options: SyntheticOptions = REGIMES, cue = false): Promise<{ config: string; space: string; data: string }> {
  tmp.write('lean.ts', leanStrategy(cue));
  const config = tmp.write('lean.yaml', LEAN_CONFIG);
  const space = tmp.write('space.yaml', LEAN_SPACE);
  const data = tmp.path(`regimes-${options.seed ?? 1}-${options.events ?? 0}.bin`);
  const writer = createRecordingWriter(data, syntheticHeader(options), { form: 'binary' });
  for (const event of syntheticEvents(options)) writer.write(event);
  await writer.close();
  return { config, space, data };
}
