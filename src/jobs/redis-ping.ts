import { Redis } from 'ioredis';
import { ClobotError } from '../core/errors.ts';
import { redisConnectionFields, type RedisTarget } from '../core/redis-url.ts';

/**
 * Checks that Redis answers before a queue is used: BullMQ itself would retry a refused
 * connection forever, and a command that waits forever on a typo in `--queue` helps nobody.
 * Rejects with one line naming `where` and the URL (without its password).
 */
export async function pingRedis(target: RedisTarget, where: string, timeoutMs = 5_000): Promise<void> {
  const client = new Redis({
    ...redisConnectionFields(target),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // the connection's own error (ECONNREFUSED, a DNS failure) says more than the command's
  let first: Error | undefined;
  client.on('error', (err: Error) => {
    first ??= err;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    const cause = first ?? err;
    throw new ClobotError(`${where}: cannot reach Redis at ${target.display} (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  } finally {
    client.disconnect();
  }
}
