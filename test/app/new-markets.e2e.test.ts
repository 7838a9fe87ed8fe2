import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunSession } from '../../src/app/run-session.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/core/log.ts';
import { sandboxRig, until, type SandboxRig } from './run-helpers.ts';
import { followerLog } from './strategies/market-follower.ts';

/**
 * New markets at runtime (issue 13 point 6), end to end against the sandbox over loopback: a
 * filter-selected live run re-evaluates its filter every second; a market the sandbox creates
 * mid-run (`POST /admin/markets/create`) is streamed, the strategy hears MarketAdded with the new
 * tokens already in ctx.tokenIds, gets its books and trades it; closed (`/admin/markets/close`),
 * it is no longer streamed and the strategy hears MarketRemoved and loses its tokens. In paper
 * mode the simulated venue trades the new market too.
 */

const FOLLOWER = fileURLToPath(new URL('./strategies/market-follower.ts', import.meta.url));
/** A throwaway key used nowhere else: 0x + 64 hex, inside the secp256k1 range. */
const TEST_PRIVATE_KEY = '0x' + '3d'.repeat(32);

let rig: SandboxRig;

beforeAll(async () => {
  rig = await sandboxRig({ seed: 41, markets: 4, events: 4, flow: { enabled: true, intensity: 4 } }, 'clobot-new-markets-');
});

afterAll(async () => {
  await rig?.close();
});

function writeConfig(mode: 'live' | 'paper', transport: 'poll' | 'ws', tag: string): string {
  const path = join(rig.dir, `${tag}.yaml`);
  writeFileSync(
    path,
    [
      `mode: ${mode}`,
      'venue:',
      `  baseUrl: ${rig.sandbox.url}`,
      ...(mode === 'live' ? ['account: { signatureType: 0 }'] : []),
      'data:',
      `  transport: ${transport}`,
      '  pollIntervalMs: 200',
      '  marketRefreshMs: 1000',
      '  markets:',
      '    filter: { active: true, acceptingOrders: true, maxCount: 50 }',
      'strategies:',
      '  - id: follow',
      `    module: ${FOLLOWER}`,
      `    params: { tag: ${tag}, takeNew: true }`,
      'risk:',
      `  haltFile: ${join(rig.dir, 'HALT')}`,
      'logging:',
      '  level: silent',
      '',
    ].join('\n'),
  );
  return path;
}

describe.each([
  ['live', 'poll'],
  ['live', 'ws'],
  ['paper', 'poll'],
] as const)('a filter-selected %s run over %s', (mode, transport) => {
  it('picks up a market created mid-run (books, MarketAdded, a trade) and drops it once closed', async () => {
    const tag = `new-markets-${mode}-${transport}`;
    const config = loadConfig(writeConfig(mode, transport, tag), mode === 'live' ? { CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY } : {});
    const session = await startRunSession({ config, logger: createLogger({ level: 'silent' }) });
    const log = followerLog(tag);
    const startTokens = session.tokens.map((t) => t.tokenId);
    try {
      await until('books of the first markets', () => startTokens.every((t) => (log.books.get(t)?.length ?? 0) > 0));
      const created = await rig.admin('/admin/markets/create', { question: `Will the ${mode} ${transport} run see this market?` });
      const conditionId = created['conditionId'] as string;
      const newTokens = (created['tokens'] as { tokenId: string }[]).map((t) => t.tokenId);
      expect(newTokens).toHaveLength(2);
      expect(startTokens.some((t) => newTokens.includes(t))).toBe(false);

      await until('MarketAdded', () => log.lifecycle.some((l) => l.event.type === 'MarketAdded' && l.event.conditionId === conditionId), 10_000);
      const added = log.lifecycle.find((l) => l.event.type === 'MarketAdded')!;
      expect(added.event).toMatchObject({ type: 'MarketAdded', conditionId, tokenIds: newTokens });
      // the strategy already trades the new tokens when it hears of them
      expect(added.tokenIds).toEqual([...startTokens, ...newTokens]);
      await until('books of the new market', () => newTokens.every((t) => (log.books.get(t)?.length ?? 0) > 0));
      await until('a fill on the new market', () => newTokens.some((t) => (log.fills.get(t) ?? 0) > 0), 15_000);
      expect(session.engine.cache.get(newTokens[0]!)?.token.conditionId).toBe(conditionId);

      await rig.admin('/admin/markets/close', { conditionId });
      await until('MarketRemoved', () => log.lifecycle.some((l) => l.event.type === 'MarketRemoved' && l.event.conditionId === conditionId), 10_000);
      const removed = log.lifecycle.find((l) => l.event.type === 'MarketRemoved')!;
      expect(removed.event).toMatchObject({ type: 'MarketRemoved', conditionId, tokenIds: newTokens, reason: 'closed' });
      // told while it still held the tokens; afterwards they are gone and no longer streamed
      expect(removed.tokenIds).toEqual([...startTokens, ...newTokens]);
      await new Promise((r) => setTimeout(r, 1_000));
      const booksAfter = newTokens.map((t) => log.books.get(t)!.length);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(newTokens.map((t) => log.books.get(t)!.length)).toEqual(booksAfter);
      expect(startTokens.every((t) => session.engine.cache.get(t) !== undefined)).toBe(true);
    } finally {
      const summary = await session.stop();
      expect(summary.marketData).toMatchObject({ transport, marketsAdded: 1, marketsRemoved: 1 });
      // one page of GET /markets per scan (a world of 5 markets): the scan's cost in requests
      expect(summary.marketData.marketScanRequests).toBe(summary.marketData.marketScans);
      expect(summary.marketData.marketScans).toBeGreaterThan(1);
    }
    expect(session.venue.transport.counters.http429).toBe(0);
  }, 60_000);
});
