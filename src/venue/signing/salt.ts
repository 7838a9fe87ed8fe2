import { randomInt } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';

/**
 * Where order salts come from, injected so tests and backtests are deterministic. A salt only
 * has to make otherwise equal orders hash differently; it stays a safe integer so both wire
 * profiles (string and number) carry it exactly.
 */
export type SaltSource = () => number;

/** randomInt's range must stay below 2^48. */
const SALT_LIMIT = 2 ** 48 - 1;

/** Uniform salts in [0, 2^48 - 1) from the OS CSPRNG. */
export function randomSaltSource(): SaltSource {
  return () => randomInt(0, SALT_LIMIT);
}

/** start, start + 1, ...: for tests and simulations. */
export function sequentialSaltSource(start = 1): SaltSource {
  let next = start;
  return () => next++;
}

/** The two values an order takes from its surroundings. */
export interface OrderStamp {
  readonly salt: number;
  /** Epoch milliseconds. */
  readonly timestamp: number;
}

/** Draws a salt and reads the injected clock, for filling OrderParams before signing. */
export function orderStamper(clock: Pick<Clock, 'now'>, salts: SaltSource): () => OrderStamp {
  return () => ({ salt: salts(), timestamp: clock.now() });
}
