import type { TokenId } from '../core/types.ts';

/** What one `add` or `remove` changed (tokens already in, or not in, the set are left out). */
export interface WatchedTokensChange {
  readonly added: readonly TokenId[];
  readonly removed: readonly TokenId[];
}

/**
 * The tokens a market-data source streams, which may change while it runs (a filter-selected run
 * picks up new markets and drops closed ones). Insertion order is kept; the sources listen for
 * changes and subscribe or unsubscribe. A plain token list becomes a set that never changes.
 */
export class WatchedTokens {
  readonly #tokens = new Set<TokenId>();
  readonly #listeners = new Set<(change: WatchedTokensChange) => void>();
  #version = 0;

  constructor(tokenIds: Iterable<TokenId> = []) {
    for (const id of tokenIds) this.#tokens.add(id);
  }

  /** Wraps a list (a fixed set), or returns the set itself. */
  static of(tokens: readonly TokenId[] | WatchedTokens): WatchedTokens {
    return tokens instanceof WatchedTokens ? tokens : new WatchedTokens(tokens);
  }

  /** Bumped on every change that added or removed a token. */
  get version(): number {
    return this.#version;
  }

  get size(): number {
    return this.#tokens.size;
  }

  has(tokenId: TokenId): boolean {
    return this.#tokens.has(tokenId);
  }

  /** A copy, in insertion order. */
  list(): TokenId[] {
    return [...this.#tokens];
  }

  add(tokenIds: Iterable<TokenId>): WatchedTokensChange {
    const added: TokenId[] = [];
    for (const id of tokenIds) {
      if (this.#tokens.has(id)) continue;
      this.#tokens.add(id);
      added.push(id);
    }
    return this.#changed({ added, removed: [] });
  }

  remove(tokenIds: Iterable<TokenId>): WatchedTokensChange {
    const removed: TokenId[] = [];
    for (const id of tokenIds) if (this.#tokens.delete(id)) removed.push(id);
    return this.#changed({ added: [], removed });
  }

  /** Calls `listener` after every change; returns the function that stops it. */
  listen(listener: (change: WatchedTokensChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(change: WatchedTokensChange): WatchedTokensChange {
    if (change.added.length === 0 && change.removed.length === 0) return change;
    this.#version++;
    for (const l of [...this.#listeners]) l(change);
    return change;
  }
}
