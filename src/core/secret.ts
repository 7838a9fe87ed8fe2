import { inspect } from 'node:util';

const MASK = '***';

/**
 * A value that must never be printed: private keys, API secrets, passphrases.
 * `toString`, `toJSON`, template literals and `util.inspect` all print `***`;
 * only `reveal()` gives the value, and only signing code should call it.
 */
export class Secret<T = string> {
  readonly #value: T;
  constructor(value: T) {
    this.#value = value;
  }
  reveal(): T {
    return this.#value;
  }
  toString(): string {
    return MASK;
  }
  toJSON(): string {
    return MASK;
  }
  [Symbol.toPrimitive](): string {
    return MASK;
  }
  [inspect.custom](): string {
    return `Secret(${MASK})`;
  }
}

/** Shows the first and last few characters of a credential, for `clobot keys` without `--show`. */
export function maskValue(value: string, keep = 4): string {
  if (value.length <= keep * 2) return MASK;
  return `${value.slice(0, keep)}…${value.slice(-keep)}`;
}
