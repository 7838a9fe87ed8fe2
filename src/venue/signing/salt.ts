import { randomInt } from 'node:crypto';

/**
 * Where order salts come from, injected so tests and backtests are deterministic. A salt only
 * has to make otherwise equal orders hash differently; it stays a safe integer so both wire
 * profiles (string and number) carry it exactly.
 */
export type SaltSource = () => number;

const SALT_LIMIT = 2 ** 48;

/** Uniform salts in [0, 2^48) from the OS CSPRNG. */
export function randomSaltSource(): SaltSource {
  return () => randomInt(0, SALT_LIMIT);
}

/** start, start + 1, ...: for tests and simulations. */
export function sequentialSaltSource(start = 1): SaltSource {
  let next = start;
  return () => next++;
}
