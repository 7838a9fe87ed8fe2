import { heldSets } from '../portfolio/complete-sets.ts';
import { catchError, EMPTY, exhaustMap, firstValueFrom, from, interval, map, timer } from 'rxjs';
import { RateLimitError, TransportError, VenueRejectError } from '../core/errors.ts';
import { formatMicros, type Micros } from '../core/fixed.ts';
import { notional } from '../core/money.ts';
import type { TokenId } from '../core/types.ts';
import type { OutsidePosition } from '../portfolio/account-figures.ts';
import { CashFence } from '../portfolio/cash-fence.ts';
import type { Portfolio } from '../portfolio/portfolio.ts';
import type { EngineDesk } from './engine-desk.ts';
import type { AccountNote, AccountReading, EngineOptions } from './ports.ts';

/** Shortest time a change of a position outside the bot must hold in the readings before it is taken, ms. */
const MIN_STABLE_MS = 5_000;

/** Tries of the first reading, and the pause after the first failed one (doubling): 0.25 + 0.5 + 1 + 2 s. */
const FIRST_READ_ATTEMPTS = 5;
const FIRST_READ_PAUSE_MS = 250;

/**
 * How far the venue's time stamps of our fills may be off our clock around a reading (their
 * resolution: the real venue's match times are whole seconds), ms: see CashFence.
 */
const FENCE_MARGIN_MS = 1_000;

/** A failure that may pass: the network, a timeout, a 429, or a 5xx from the venue. */
function isTransient(err: unknown): boolean {
  return err instanceof TransportError || err instanceof RateLimitError || (err instanceof VenueRejectError && err.status >= 500);
}

/**
 * The engine's part that holds the account to the venue's truth. Live: the account is read at
 * start (before any strategy runs) and every `intervalMs`; a reading sets the portfolio's cash
 * to the venue's balance with the fills the venue had counted when it answered (a time fence:
 * portfolio/cash-fence.ts), so a fill that reaches us after the reading is neither lost nor
 * counted twice, and `ctx.balance()` (cash less what our open buys reserve) is the
 * account's free collateral, and compares the venue's positions with the bot's own (its fills):
 * what the venue lists beyond them is a position held outside the bot (a trade by hand on the
 * same account). Such a position is logged, listed in the summary and the store, kept out of the
 * bot's figures and PnL, and shown to risk, which refuses a SELL of the bot beyond the bot's own
 * shares in that token (the engine gate `outside`), so it is never sold by accident. The first
 * reading is taken as it is. A position is outside only beyond what our own orders can explain,
 * by order id: what is left of an open BUY of ours and what a closed one matched beyond the fills
 * booked on it (a trade of the bot reaches the venue's positions before its fill reaches us,
 * however late). Later, a token's outside size changes (up, down or to none) only once the
 * readings have shown the new size for `stableMs` (the larger of 5 s and two periods): the
 * venue's positions route is a cache that lags our SELLs.
 * Paper and backtest: the cash starts at the configured balance, written to the store once when
 * a run begins.
 */
export class AccountSync {
  readonly source: 'venue' | 'configured';
  readonly #desk: EngineDesk;
  readonly #portfolio: Portfolio;
  readonly #mark: (tokenId: TokenId) => Micros | undefined;
  readonly #settings: EngineOptions['account'];
  readonly #outside = new Map<TokenId, Micros>();
  /** A change of a token's outside size seen, not yet stable long enough to be taken. */
  readonly #pending = new Map<TokenId, { size: Micros; since: number }>();
  #readings = 0;
  /**
   * Shares per token our orders may hold at the venue beyond their booked fills (the fill book's
   * `unbookedBuys`): a position within them is never called outside.
   */
  unbooked: (() => ReadonlyMap<TokenId, Micros>) | undefined;
  /** Live: the venue's readings and our cash events, each applied with what the venue had counted. */
  readonly #fence = new CashFence(FENCE_MARGIN_MS);

  constructor(desk: EngineDesk, portfolio: Portfolio, mark: (tokenId: TokenId) => Micros | undefined, settings: EngineOptions['account']) {
    this.#desk = desk;
    this.#portfolio = portfolio;
    this.#mark = mark;
    this.#settings = settings;
    this.source = settings ? 'venue' : 'configured';
  }

  /**
   * Live: the first reading. A transient failure (network, timeout, 429, 5xx) is tried again, up
   * to FIRST_READ_ATTEMPTS times with a doubling pause; any other error, or the last one, rejects:
   * a live run does not start on a cash it could not read. Otherwise, when the run begins
   * (`resumed` false), the configured cash is written to the store.
   */
  async load(resumed: boolean): Promise<void> {
    const settings = this.#settings;
    if (!settings) {
      if (!resumed) this.#record(this.#portfolio.balance());
      return;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const from = this.#desk.clock.now();
        const reading = await settings.source.read();
        this.#desk.transaction(() => this.apply(reading, from));
        return;
      } catch (err) {
        if (attempt >= FIRST_READ_ATTEMPTS || !isTransient(err)) throw err;
        const pauseMs = FIRST_READ_PAUSE_MS * 2 ** (attempt - 1);
        this.#desk.log.warn('account reading failed; trying again', { err: err instanceof Error ? err.message : String(err), attempt, pauseMs });
        await firstValueFrom(timer(pauseMs, this.#desk.clock.scheduler));
      }
    }
  }

  /** Live: reads the account every `intervalMs` (one reading at a time; a failed one is logged and skipped). */
  start(): void {
    const settings = this.#settings;
    if (!settings || settings.intervalMs <= 0) return;
    const { clock, log } = this.#desk;
    this.#desk.subs.add(
      interval(settings.intervalMs, clock.scheduler)
        .pipe(
          exhaustMap(() => {
            const asked = clock.now();
            return from(settings.source.read()).pipe(
              map((reading) => ({ reading, asked })),
              catchError((err: unknown) => {
                log.warn('account reading failed', { err: err instanceof Error ? err.message : String(err) });
                return EMPTY;
              }),
            );
          }),
        )
        .subscribe(({ reading, asked }) => {
          if (!this.#desk.stopped) this.#desk.transaction(() => this.apply(reading, asked));
        }),
    );
  }

  /**
   * Takes one reading, asked at `asked` (default: now) and answered now: the venue's cash, with
   * the fills it had counted (the fence), and the positions beyond the bot's own.
   */
  apply(reading: AccountReading, asked?: number): void {
    const first = this.#readings++ === 0;
    const portfolio = this.#portfolio;
    const now = this.#desk.clock.now();
    this.#fence.reading(reading.cash, asked ?? now, now);
    const cash = this.#fence.cash()!;
    if (first || cash !== portfolio.balance()) this.#desk.log.info('account cash from the venue', { cash: formatMicros(cash), was: formatMicros(portfolio.balance()), venue: formatMicros(reading.cash) });
    portfolio.setBalance(cash);
    const candidates = new Map<TokenId, Micros>();
    // what our own orders can explain (by order id: matched, fill not booked yet) is never outside
    const unbooked = this.unbooked?.();
    for (const [tokenId, held] of reading.positions) {
      const extra = held - Math.max(0, portfolio.size(tokenId) ?? 0) - (unbooked?.get(tokenId) ?? 0);
      if (extra > 0) candidates.set(tokenId, extra);
    }
    const stableMs = Math.max(MIN_STABLE_MS, 2 * (this.#settings?.intervalMs ?? 0));
    for (const tokenId of new Set([...candidates.keys(), ...this.#outside.keys(), ...this.#pending.keys()])) {
      const size = candidates.get(tokenId) ?? 0;
      if (size === (this.#outside.get(tokenId) ?? 0)) {
        this.#pending.delete(tokenId);
        continue;
      }
      const seen = this.#pending.get(tokenId);
      if (!first && (seen === undefined || seen.size !== size)) {
        this.#pending.set(tokenId, { size, since: now });
        continue;
      }
      if (!first && now - seen!.since < stableMs) continue;
      this.#pending.delete(tokenId);
      this.#takeOutside(tokenId, size);
    }
    this.#record(cash);
  }

  /**
   * One of our cash events, stored already: a fill (at its match time), a void, a payout. Live,
   * once read, the cash is the fence's: a fill the last reading holds already moves nothing, and
   * the correction is written to the store as an anchor after that fill (so `clobot status`
   * replays the same cash).
   */
  cashMoved(at: number, effect: Micros): void {
    // also while stopping: the stop's last look at our fills books fills the readings may hold
    if (!this.#settings || !this.#fence.anchored) return;
    this.#fence.event(at, effect);
    const cash = this.#fence.cash()!;
    if (cash === this.#portfolio.balance()) return;
    this.#portfolio.setBalance(cash);
    this.#record(cash);
  }

  #takeOutside(tokenId: TokenId, size: Micros): void {
    const log = this.#desk.log;
    if (size > 0) {
      this.#outside.set(tokenId, size);
      log.warn('position held outside the bot: reported, kept out of its PnL, never sold by it', { tokenId, size: formatMicros(size) });
    } else {
      this.#outside.delete(tokenId);
      log.info('position outside the bot gone', { tokenId });
    }
  }

  /** Shares of `tokenId` the account holds outside the bot (0 when none). */
  outsideSize(tokenId: TokenId): Micros {
    return this.#outside.get(tokenId) ?? 0;
  }

  /** The live map of positions held outside the bot (risk's view). */
  get outsideHoldings(): ReadonlyMap<TokenId, Micros> {
    return this.#outside;
  }

  /** Positions outside the bot with their marks, for the summary. */
  outside(): OutsidePosition[] {
    const out: OutsidePosition[] = [];
    for (const [tokenId, size] of this.#outside) {
      const mark = this.#mark(tokenId);
      out.push(mark === undefined ? { tokenId, size: formatMicros(size) } : { tokenId, size: formatMicros(size), mark: formatMicros(mark), value: formatMicros(notional(mark, size)) });
    }
    return out;
  }

  /** Writes the marks and the positions outside to the store (at stop: what the summary shows). */
  record(): void {
    this.#record(undefined);
  }

  #record(cash: Micros | undefined): void {
    const persistence = this.#desk.persistence;
    if (!persistence?.account) return;
    const marks: Record<TokenId, Micros> = {};
    for (const tokenId of this.#portfolio.tokenIds()) {
      const mark = this.#mark(tokenId);
      if (mark !== undefined) marks[tokenId] = mark;
    }
    for (const tokenId of this.#outside.keys()) {
      const mark = this.#mark(tokenId);
      if (mark !== undefined) marks[tokenId] = mark;
    }
    // the complete sets held, so `clobot status` values them at their payout as the run did
    const sets = heldSets(this.#portfolio.completeSetShape, (t) => BigInt(this.#portfolio.size(t) ?? 0));
    const note: AccountNote = {
      at: this.#desk.clock.now(),
      source: this.source,
      ...(cash === undefined ? {} : { cash }),
      marks,
      outside: [...this.#outside].map(([tokenId, size]) => ({ tokenId, size })),
      ...(sets.pairs.length + sets.eventSets.length === 0 ? {} : { sets }),
    };
    persistence.account(note);
  }
}
