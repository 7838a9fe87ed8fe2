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
 * The feed watchdog (issue 13 point 7), end to end against the sandbox over loopback: a paper run
 * on the WS market channel, its assets split over connections of at most 3; the sandbox's fault
 * `wsSilent` keeps the connections open (PINGs answered) and sends nothing; the watchdog notices
 * within data.wsSilentAfterMs, resubscribes, reconnects, and fetches the books by REST, so books
 * reach the strategy while the channel is silent; the fault lifted, the channel feeds them again.
 */

const FOLLOWER = fileURLToPath(new URL('./strategies/market-follower.ts', import.meta.url));
const SILENT_MS = 600;

let rig: SandboxRig;

beforeAll(async () => {
  rig = await sandboxRig({ seed: 43, markets: 6, events: 6, flow: { enabled: true, intensity: 6 } }, 'clobot-feed-watchdog-');
});

afterAll(async () => {
  await rig?.close();
});

async function setFaults(patch: Record<string, unknown>): Promise<void> {
  await rig.admin('/admin/faults', patch);
}

describe('the WS feed watchdog', () => {
  it('splits assets over connections, detects a silent feed and refreshes its books by REST, then streams again', async () => {
    const tag = 'watchdog';
    const path = join(rig.dir, 'watchdog.yaml');
    writeFileSync(
      path,
      [
        'mode: paper',
        'venue:',
        `  baseUrl: ${rig.sandbox.url}`,
        'data:',
        '  transport: ws',
        `  wsSilentAfterMs: ${SILENT_MS}`,
        '  wsMaxAssetsPerConnection: 3',
        '  markets:',
        '    filter: { active: true, acceptingOrders: true, maxCount: 4 }',
        'strategies:',
        '  - id: follow',
        `    module: ${FOLLOWER}`,
        `    params: { tag: ${tag} }`,
        'logging:',
        '  level: silent',
        '',
      ].join('\n'),
    );
    const config = loadConfig(path, {});
    const session = await startRunSession({ config, logger: createLogger({ level: 'silent' }) });
    const log = followerLog(tag);
    const tokens = session.tokens.map((t) => t.tokenId);
    const booksSince = (t: string, since: number) => (log.books.get(t) ?? []).filter((ts) => ts >= since).length;
    try {
      expect(tokens.length).toBeGreaterThan(3);
      // ceil(tokens / 3) connections, each subscribed
      const expected = Math.ceil(tokens.length / 3);
      await until('every connection open', () => session.marketData.summary().connections === expected);
      // the sandbox counts a subscription once its message is read: wait for every one
      const adminWs = async () => (await (await fetch(`${rig.sandbox.url}/admin/ws`)).json()) as { connections: number; subscriptions: number };
      for (const deadline = Date.now() + 10_000; (await adminWs()).subscriptions !== tokens.length && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
      expect(await adminWs()).toMatchObject({ connections: expected, subscriptions: tokens.length });
      await until('books over WS', () => tokens.every((t) => booksSince(t, 0) > 0));
      expect(session.marketData.summary().silences).toBe(0);

      await setFaults({ wsSilent: true });
      const silentFrom = Date.now();
      await until('the watchdog to notice', () => session.marketData.summary().silences >= expected, 10_000);
      const noticed = Date.now() - silentFrom;
      expect(noticed).toBeGreaterThanOrEqual(SILENT_MS - 50);
      await until('books by REST while silent', () => session.marketData.summary().refreshedBooks >= tokens.length && tokens.every((t) => booksSince(t, silentFrom + SILENT_MS) > 0), 10_000);
      // silent again after resubscribing: the connections are remade (and refreshed again)
      await until('reconnects', () => session.marketData.summary().reconnects >= expected, 10_000);
      const during = session.marketData.summary();
      expect(during.resubscribes).toBeGreaterThanOrEqual(expected);

      await setFaults({ wsSilent: false });
      const back = Date.now();
      await until('books over WS again', () => tokens.every((t) => booksSince(t, back) > 0), 10_000);
      // most books now come over the channel, not from REST (a quiet connection may still be
      // refreshed now and then: silence is measured per connection, market messages only)
      const refreshedAtBack = session.marketData.summary().refreshedBooks;
      const total = () => tokens.reduce((n, t) => n + booksSince(t, back), 0);
      await new Promise((r) => setTimeout(r, 2_000));
      expect(total()).toBeGreaterThan(2 * (session.marketData.summary().refreshedBooks - refreshedAtBack));
    } finally {
      await setFaults({ wsSilent: false });
      const summary = await session.stop();
      expect(summary.marketData.transport).toBe('ws');
      expect(summary.marketData.silences).toBeGreaterThan(0);
    }
  }, 60_000);
});
