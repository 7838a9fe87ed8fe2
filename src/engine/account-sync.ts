import { catchError, EMPTY, exhaustMap, firstValueFrom, from, interval, timer } from 'rxjs';
import { RateLimitError, TransportError, VenueRejectError } from '../core/errors.ts';
import { formatMicros, type Micros } from '../core/fixed.ts';
import { notional } from '../core/money.ts';
import type { TokenId } from '../core/types.ts';
import type { OutsidePosition } from '../portfolio/account-figures.ts';
import type { Portfolio } from '../portfolio/portfolio.ts';
import type { EngineDesk } from './engine-desk.ts';
import type { AccountNote, AccountReading, EngineOptions } from './ports.ts';

/** Shortest time a change of a position outside the bot must hold in the readings before it is taken, ms. */
const MIN_STABLE_MS = 5_000;

/** Tries of the first reading, and the pause after the first failed one (doubling): 0.25 + 0.5 + 1 + 2 s. */
const FIRST_READ_ATTEMPTS = 5;
const FIRST_READ_PAUSE_MS = 250;

/** A failure that may pass: the network, a timeout, a 429, or a 5xx from the venue. */
function isTransient(err: unknown): boolean {
  return err instanceof TransportError || err instanceof RateLimitError || (err instanceof VenueRejectError && err.status >= 500);
}

/**
 * The engine's part that holds the account to the venue's truth. Live: the account is read at
 * start (before any strategy runs) and every `intervalMs`; a reading sets the portfolio's cash
 * to the venue's balance (unless our fills moved the cash since the previous reading: then a fill
 * may be in flight on one side, and the next quiet period sets it), so `ctx.balance()` (cash less what our open buys reserve) is the
 * account's free collateral, and compares the venue's positions with the bot's own (its fills):
 * what the venue lists beyond them is a position held outside the bot (a trade by hand on the
 * same account). Such a position is logged, listed in the summary and the store, kept out of the
 * bot's figures and PnL, and shown to risk, which refuses a SELL of the bot beyond the bot's own
 * shares in that token (the engine gate `outside`), so it is never sold by accident. The first
 * reading is taken as it is; later, a token's outside size changes (up, down or to none) only
 * once the readings have shown the new size for `stableMs` (the larger of 5 s and two periods):
 * a trade of the bot reaches the venue's positions before its fill reaches us (the fills poller),
 * and such a gap must neither be reported as a manual position nor lift the protection of one.
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
  /** The portfolio's cash after the previous reading. */
  #cashAfter: Micros | undefined;

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
        const reading = await settings.source.read();
        this.#desk.transaction(() => this.apply(reading));
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
          exhaustMap(() =>
            from(settings.source.read()).pipe(
              catchError((err: unknown) => {
                log.warn('account reading failed', { err: err instanceof Error ? err.message : String(err) });
                return EMPTY;
              }),
            ),
          ),
        )
        .subscribe((reading) => {
          if (!this.#desk.stopped) this.#desk.transaction(() => this.apply(reading));
        }),
    );
  }

  /** Takes one reading: the venue's cash, and the positions beyond the bot's own. */
  apply(reading: AccountReading): void {
    const first = this.#readings++ === 0;
    const portfolio = this.#portfolio;
    // our fills moved the cash since the previous reading: one of them may be counted by the
    // venue and not yet by us (or the reverse), so the venue's figure waits for a quiet period
    const moved = this.#cashAfter !== undefined && portfolio.balance() !== this.#cashAfter;
    const cash = first || !moved ? reading.cash : undefined;
    if (cash !== undefined) {
      if (first || cash !== portfolio.balance()) this.#desk.log.info('account cash from the venue', { cash: formatMicros(cash), was: formatMicros(portfolio.balance()) });
      portfolio.setBalance(cash);
    }
    this.#cashAfter = portfolio.balance();
    const candidates = new Map<TokenId, Micros>();
    for (const [tokenId, held] of reading.positions) {
      const extra = held - Math.max(0, portfolio.size(tokenId) ?? 0);
      if (extra > 0) candidates.set(tokenId, extra);
    }
    const now = this.#desk.clock.now();
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
    const note: AccountNote = {
      at: this.#desk.clock.now(),
      source: this.source,
      ...(cash === undefined ? {} : { cash }),
      marks,
      outside: [...this.#outside].map(([tokenId, size]) => ({ tokenId, size })),
    };
    persistence.account(note);
  }
}
