import type { Clock } from '../../core/clock.ts';
import { LiveClock } from '../../core/clock.ts';
import type { Micros } from '../../core/fixed.ts';
import type { ConditionId, TokenId } from '../../core/types.ts';
import type { BookSource } from './book-source.ts';
import { generateActivity } from './generate-activity.ts';
import { generateCatalog } from './generate-catalog.ts';
import { generateComments } from './generate-comments.ts';
import type {
  SandboxClosedPosition,
  SandboxComment,
  SandboxCreator,
  SandboxEvent,
  SandboxFill,
  SandboxHolding,
  SandboxMarket,
  SandboxSeries,
  SandboxTag,
  SandboxToken,
  SandboxWallet,
} from './model.ts';
import { SeededBookStore } from './seeded-book-store.ts';

/**
 * The world's reference time: generated dates (creation, end, fills, comments) are placed
 * around it, so a seed gives the same world whenever it is made. Live data (book timestamps,
 * `/time`, price-history windows) follows the injected clock.
 */
export const WORLD_EPOCH_MS = Date.UTC(2026, 10, 1);

export interface WorldOptions {
  readonly seed?: number;
  readonly markets?: number;
  readonly events?: number;
  readonly clock?: Clock;
  readonly epochMs?: number;
}

/** Everything the sandbox serves, generated from a seed, with the lookups the routes need. */
export class World {
  readonly seed: number;
  readonly epochMs: number;
  readonly tags: readonly SandboxTag[];
  readonly creators: readonly SandboxCreator[];
  readonly series: readonly SandboxSeries[];
  readonly events: readonly SandboxEvent[];
  readonly markets: readonly SandboxMarket[];
  readonly wallets: readonly SandboxWallet[];
  /** Newest first. */
  readonly fills: readonly SandboxFill[];
  readonly closedPositions: readonly SandboxClosedPosition[];
  readonly holdings: readonly SandboxHolding[];
  /** Top-level comments in id order (replies hang under each). */
  readonly comments: readonly SandboxComment[];
  /** The seeded books; `books` starts as this store. */
  readonly seededBooks: SeededBookStore;
  /** What the book routes read. The trading step plugs the matching engine in here. */
  books: BookSource;

  /** `markets` and `events`, which grow when a market is created while the sandbox runs. */
  readonly #markets: SandboxMarket[];
  readonly #events: SandboxEvent[];
  readonly #marketByCondition = new Map<string, SandboxMarket>();
  readonly #marketById = new Map<string, SandboxMarket>();
  readonly #marketBySlug = new Map<string, SandboxMarket>();
  readonly #eventBySlug = new Map<string, SandboxEvent>();
  readonly #eventById = new Map<string, SandboxEvent>();
  readonly #tokens = new Map<TokenId, SandboxToken>();
  readonly #walletByAddress = new Map<string, SandboxWallet>();
  readonly #fillsByWallet = new Map<SandboxWallet, SandboxFill[]>();
  readonly #closedByWallet = new Map<SandboxWallet, SandboxClosedPosition[]>();
  readonly #holdingsByToken = new Map<TokenId, SandboxHolding[]>();
  readonly #holdingsByWallet = new Map<SandboxWallet, SandboxHolding[]>();
  readonly #commentById = new Map<string, SandboxComment>();

  constructor(options: WorldOptions = {}) {
    this.seed = options.seed ?? 1;
    this.epochMs = options.epochMs ?? WORLD_EPOCH_MS;
    const clock = options.clock ?? new LiveClock();
    const catalog = generateCatalog({ seed: this.seed, markets: options.markets ?? 200, events: options.events ?? 50, epochMs: this.epochMs });
    const activity = generateActivity(this.seed, this.epochMs, catalog.markets);
    this.tags = catalog.tags;
    this.creators = catalog.creators;
    this.series = catalog.series;
    this.#events = [...catalog.events];
    this.events = this.#events;
    this.#markets = [...catalog.markets];
    this.markets = this.#markets;
    this.wallets = activity.wallets;
    this.fills = activity.fills;
    this.closedPositions = activity.closedPositions;
    this.holdings = activity.holdings;
    this.comments = generateComments(this.seed, this.epochMs, catalog, activity);

    for (const m of this.markets) {
      this.#marketByCondition.set(m.conditionId, m);
      this.#marketById.set(m.id, m);
      this.#marketBySlug.set(m.slug, m);
      for (const t of m.tokens) this.#tokens.set(t.tokenId, t);
    }
    for (const e of this.events) {
      this.#eventBySlug.set(e.slug, e);
      this.#eventById.set(e.id, e);
    }
    for (const w of this.wallets) this.#walletByAddress.set(w.address.toLowerCase(), w);
    const lastTrade = new Map<TokenId, Micros>();
    for (const f of this.fills) {
      push(this.#fillsByWallet, f.wallet, f);
      if (!lastTrade.has(f.token.tokenId)) lastTrade.set(f.token.tokenId, f.price); // fills are newest first
    }
    for (const p of this.closedPositions) push(this.#closedByWallet, p.wallet, p);
    for (const h of this.holdings) {
      push(this.#holdingsByToken, h.token.tokenId, h);
      push(this.#holdingsByWallet, h.wallet, h);
    }
    for (const list of this.#holdingsByToken.values()) list.sort((a, b) => b.size - a.size || a.wallet.index - b.wallet.index);
    for (const c of this.comments) {
      this.#commentById.set(c.id, c);
      for (const r of c.replies) this.#commentById.set(r.id, r);
    }
    this.seededBooks = new SeededBookStore({ seed: this.seed, clock, token: (id) => this.#tokens.get(id), lastTradePrices: lastTrade });
    this.books = this.seededBooks;
  }

  /**
   * Lists a market created while the sandbox runs (market-creation.ts), and its event when new:
   * every route and lookup sees it from now on, after the generated ones.
   */
  listMarket(market: SandboxMarket): void {
    if (this.#marketByCondition.has(market.conditionId)) return;
    const event = market.event;
    if (!this.#eventById.has(event.id)) {
      this.#events.push(event);
      this.#eventBySlug.set(event.slug, event);
      this.#eventById.set(event.id, event);
    }
    this.#markets.push(market);
    this.#marketByCondition.set(market.conditionId, market);
    this.#marketById.set(market.id, market);
    this.#marketBySlug.set(market.slug, market);
    for (const t of market.tokens) this.#tokens.set(t.tokenId, t);
  }

  marketByConditionId(conditionId: ConditionId): SandboxMarket | undefined {
    return this.#marketByCondition.get(conditionId.toLowerCase());
  }

  marketById(id: string): SandboxMarket | undefined {
    return this.#marketById.get(id);
  }

  marketBySlug(slug: string): SandboxMarket | undefined {
    return this.#marketBySlug.get(slug);
  }

  eventBySlug(slug: string): SandboxEvent | undefined {
    return this.#eventBySlug.get(slug);
  }

  eventById(id: string): SandboxEvent | undefined {
    return this.#eventById.get(id);
  }

  token(tokenId: TokenId): SandboxToken | undefined {
    return this.#tokens.get(tokenId);
  }

  /** Case-insensitive. */
  wallet(address: string): SandboxWallet | undefined {
    return this.#walletByAddress.get(address.toLowerCase());
  }

  /** Newest first. */
  fillsOf(wallet: SandboxWallet): readonly SandboxFill[] {
    return this.#fillsByWallet.get(wallet) ?? [];
  }

  closedPositionsOf(wallet: SandboxWallet): readonly SandboxClosedPosition[] {
    return this.#closedByWallet.get(wallet) ?? [];
  }

  /** Largest first. */
  holdersOf(tokenId: TokenId): readonly SandboxHolding[] {
    return this.#holdingsByToken.get(tokenId) ?? [];
  }

  holdingsOf(wallet: SandboxWallet): readonly SandboxHolding[] {
    return this.#holdingsByWallet.get(wallet) ?? [];
  }

  /** A top-level comment or a reply. */
  comment(id: string): SandboxComment | undefined {
    return this.#commentById.get(id);
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
