import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/server.ts';
import { CallerCaps, DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER, subscriptionCapOfWorld } from '../../../src/sandbox/ws/caller-caps.ts';
import { call } from '../helpers.ts';

/**
 * The per-caller caps of the sandbox's WebSocket channels (src/sandbox/ws/caller-caps.ts): counts
 * per remote address, the reasons a connection is closed with, and a subscription cap that follows
 * the world (twice its assets or markets, at least the default), read from a running sandbox.
 */

describe('CallerCaps', () => {
  it('admits up to maxConnections per caller, names the cap when refusing, and forgets a caller with nothing open', () => {
    const caps = new CallerCaps(2, 10);
    const a = caps.admit('10.0.0.1');
    const b = caps.admit('10.0.0.1');
    expect(caps.admit('10.0.0.1')).toBe('too many connections from 10.0.0.1: 2 open (max 2)');
    expect(typeof caps.admit('10.0.0.2')).toBe('object'); // another caller has its own count
    if (typeof a === 'string' || typeof b === 'string') throw new Error('refused');
    expect(caps.subscribe(a, 6)).toBeUndefined();
    expect(caps.subscribe(b, 5)).toBe('too many subscriptions from 10.0.0.1: 6 + 5 (max 10)');
    caps.release(b, 5);
    caps.unsubscribe(a, 6);
    caps.release(a, 0);
    expect(caps.callers).toBe(1); // 10.0.0.1 forgotten, 10.0.0.2 still open
    expect(typeof caps.admit('10.0.0.1')).toBe('object');
  });

  it('a subscription cap that follows the world: twice its size, at least the default, read at each subscription', () => {
    let size = 100;
    const caps = new CallerCaps(64, subscriptionCapOfWorld(() => size));
    expect(caps.maxSubscriptions).toBe(DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER);
    size = 15_000;
    expect(caps.maxSubscriptions).toBe(30_000);
    const use = caps.admit('x');
    if (typeof use === 'string') throw new Error(use);
    expect(caps.subscribe(use, 30_000)).toBeUndefined();
    expect(caps.subscribe(use, 1)).toBe('too many subscriptions from x: 30000 + 1 (max 30000)');
  });
});

describe('the sandbox channels\' caps', () => {
  it('market channel: twice the world\'s assets (as it grows), user channel: twice its markets, at least 20,000; explicit caps win', async () => {
    const big = await startSandbox({ markets: 6_000, events: 100, flow: { enabled: false } });
    try {
      const caps = async (path: string) => (await call(`${big.url}${path}`)).body as { maxConnectionsPerCaller: number; maxSubscriptionsPerCaller: number };
      expect(await caps('/admin/ws')).toMatchObject({ maxConnectionsPerCaller: 64, maxSubscriptionsPerCaller: 24_000 });
      expect(await caps('/admin/ws/user')).toMatchObject({ maxConnectionsPerCaller: 64, maxSubscriptionsPerCaller: 20_000 });
      const created = await call(`${big.url}/admin/markets/create`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      expect(created.status).toBe(200);
      expect((await caps('/admin/ws')).maxSubscriptionsPerCaller).toBe(24_004);
    } finally {
      await big.close();
    }
    const set = await startSandbox({ markets: 20, events: 5, flow: { enabled: false }, ws: { maxConnectionsPerCaller: 3, maxSubscriptionsPerCaller: 7 } });
    try {
      expect((await call(`${set.url}/admin/ws`)).body).toMatchObject({ maxConnectionsPerCaller: 3, maxSubscriptionsPerCaller: 7 });
      expect((await call(`${set.url}/admin/ws/user`)).body).toMatchObject({ maxConnectionsPerCaller: 3, maxSubscriptionsPerCaller: 7 });
    } finally {
      await set.close();
    }
  });
});
