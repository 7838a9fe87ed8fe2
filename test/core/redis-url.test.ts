import { describe, expect, it } from 'vitest';
import { parseRedisUrl } from '../../src/core/redis-url.ts';

describe('parseRedisUrl', () => {
  it('reads host, port, database and credentials; the display form hides the password', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6380/2', 'x')).toEqual({ host: '127.0.0.1', port: 6380, db: 2, tls: false, display: 'redis://127.0.0.1:6380/2' });
    const t = parseRedisUrl('rediss://bot:s%40cret@redis.internal', 'x');
    expect(t).toMatchObject({ host: 'redis.internal', port: 6379, db: 0, username: 'bot', password: 's@cret', tls: true });
    expect(t.display).toBe('rediss://bot:***@redis.internal');
    expect(parseRedisUrl('redis://:pw@[::1]:7000', 'x')).toMatchObject({ host: '::1', port: 7000, password: 'pw', display: 'redis://:***@[::1]:7000' });
  });

  it('refuses what is not a Redis URL with one line naming where, never echoing a password', () => {
    expect(() => parseRedisUrl('http://127.0.0.1:6379', '--queue')).toThrow("--queue: must use redis:// or rediss://, was 'http://127.0.0.1:6379'");
    expect(() => parseRedisUrl('redis://u:hunter2@host/abc', 'venue.rateBudget.redis')).toThrow("venue.rateBudget.redis: the path must be a database number (redis://host:port/0), was '/abc'");
    expect(() => parseRedisUrl('u:hunter2@host', '--queue')).toThrow(/^--queue: must/);
    for (const bad of ['nonsense', 'http://u:hunter2@h', 'redis://u:hunter2@h/x']) {
      try {
        parseRedisUrl(bad, '--queue');
      } catch (err) {
        expect((err as Error).message).not.toContain('hunter2');
      }
    }
  });
});
