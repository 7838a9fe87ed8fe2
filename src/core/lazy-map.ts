/** Marks a key whose value computed to undefined (a symbol: no value of V can be it). */
const ABSENT: unique symbol = Symbol('absent');

/**
 * A read-only map whose values are computed on first `get` and kept: a snapshot that costs only
 * what its reader looks at. The risk state of a batch uses it for market views and positions, so
 * checking one order on one token does not build a view of every tracked market. The keys come
 * from `keys()`, asked once when something iterates or asks for the size; a key whose value
 * computes to undefined is treated as absent.
 */
export class LazyMap<K, V> implements ReadonlyMap<K, V> {
  readonly #keys: () => Iterable<K>;
  readonly #compute: (key: K) => V | undefined;
  readonly #memo = new Map<K, V | typeof ABSENT>();
  #all: Map<K, V> | undefined;

  constructor(keys: () => Iterable<K>, compute: (key: K) => V | undefined) {
    this.#keys = keys;
    this.#compute = compute;
  }

  get(key: K): V | undefined {
    // one lookup: a key computed to undefined is memoized as ABSENT
    const memo = this.#memo.get(key);
    if (memo !== undefined) return memo === ABSENT ? undefined : memo;
    const value = this.#compute(key);
    this.#memo.set(key, value === undefined ? ABSENT : value);
    return value;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  get size(): number {
    return this.#materialize().size;
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.#materialize()) fn.call(thisArg, v, k, this);
  }

  entries(): MapIterator<[K, V]> {
    return this.#materialize().entries();
  }

  keys(): MapIterator<K> {
    return this.#materialize().keys();
  }

  values(): MapIterator<V> {
    return this.#materialize().values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  #materialize(): Map<K, V> {
    if (this.#all === undefined) {
      const all = new Map<K, V>();
      for (const key of this.#keys()) {
        const value = this.get(key);
        if (value !== undefined) all.set(key, value);
      }
      this.#all = all;
    }
    return this.#all;
  }
}
