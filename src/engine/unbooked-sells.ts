import { catchError, of, timeout } from 'rxjs';
import type { Micros } from '../core/fixed.ts';
import type { TokenId } from '../core/types.ts';
import type { FillsSnapshot, VenueOrderState } from '../execution/execution-client.ts';
import { OPEN_STATUSES, type OrderRecord } from '../execution/order-tracker.ts';
import type { EngineDesk } from './engine-desk.ts';

/** Longest a lookup of a closed SELL may take before it counts as failed (clock time), ms. */
const LOOKUP_TIMEOUT_MS = 5_000;
/** Wait after a failed lookup before the same order may be looked up again, ms. */
const LOOKUP_RETRY_MS = 1_000;

/** A closed SELL of ours whose shares the venue may have sold beyond its booked fills. */
interface Doubt {
  /** When it closed in our books (clock time). */
  readonly closedAt: number;
  /** What the venue says it matched in all (it matches no more), once known. */
  matched: Micros | undefined;
  /** A lookup in flight, or the time before which none is made again (after a failure). */
  lookup: 'asking' | number | undefined;
}

/**
 * Shares the venue may already have sold for us while the fills are still on their way. A SELL
 * we cancelled may have matched (in part, or all: "not canceled: matched") before the cancel;
 * the cancel's answer does not say how much, and the fill reaches us later, by the next read of
 * our trades (seconds under load). Until then our position still counts those shares, so a new
 * SELL sized on it would find them gone at the venue ("not enough balance"). This part keeps, per
 * token, our closed SELLs that may hold such shares: the doubt of one is its size less its booked
 * fills while the venue's matched size is unknown, and that size less its booked fills once known.
 * It is known from a lookup of the order (asked for only when a SELL waits on it: `lookUp`), from
 * the venue's own word (`venueState`: the user channel's cancellation), or made moot by a complete
 * read of our trades that began after the order closed (`snapshot`: every fill of it is booked by
 * then). The quote holds (quote-holds.ts) hold a SELL that needs doubted shares and diff it again
 * when a doubt shrinks (`changed`: a lookup answered, a fill booked, a read).
 */
export class UnbookedSells {
  readonly #desk: EngineDesk;
  /** Shares booked on an order by its fills so far. */
  readonly #booked: (orderId: string) => Micros;
  /** A doubt shrank on a market (condition id): held quotes there may go now. */
  readonly #changed: (conditionId: string) => void;
  readonly #byToken = new Map<TokenId, Map<OrderRecord, Doubt>>();
  /** Lookups made (for the summary's curious reader and tests). */
  lookups = 0;

  /**
   * Wait before a lookup is made, ms: with the user channel, the venue's cancellation message
   * (which carries the matched size) usually settles the doubt first; 0 without it.
   */
  readonly #lookupDelayMs: number;
  /** What the venue said an order matched before it closed in our books (the channel's message came first). */
  readonly #told = new WeakMap<OrderRecord, Micros>();

  constructor(desk: EngineDesk, booked: (orderId: string) => Micros, changed: (conditionId: string) => void, options: { lookupDelayMs?: number } = {}) {
    this.#lookupDelayMs = options.lookupDelayMs ?? 0;
    this.#desk = desk;
    this.#booked = booked;
    this.#changed = changed;
    desk.tracker.onStatus((record) => this.#statusChanged(record));
    desk.tracker.onFilled((record) => this.#filled(record));
  }

  /** Shares booked on an order of ours by its fills so far. */
  booked(record: OrderRecord): Micros {
    return record.orderId === undefined ? 0 : this.#booked(record.orderId);
  }

  /** Whether a closed SELL of the token may hold shares the venue sold and we have not booked. */
  has(tokenId: TokenId): boolean {
    return this.#byToken.has(tokenId);
  }

  /**
   * Shares of the token our closed SELLs may have sold beyond their booked fills, and those of
   * them whose matched size the venue has not told (a lookup would). Drops what is settled.
   */
  doubt(tokenId: TokenId): { shares: Micros; unknown: OrderRecord[] } {
    const doubts = this.#byToken.get(tokenId);
    let shares = 0;
    const unknown: OrderRecord[] = [];
    if (doubts === undefined) return { shares, unknown };
    const tracker = this.#desk.tracker;
    for (const [record, doubt] of doubts) {
      const left = this.#left(record, doubt);
      // settled, or forgotten by the tracker (closed past the retention): no longer in doubt
      if (left <= 0 || tracker.byClientId(record.request.clientOrderId) !== record) {
        doubts.delete(record);
        continue;
      }
      shares += left;
      if (doubt.matched === undefined) unknown.push(record);
    }
    if (doubts.size === 0) this.#byToken.delete(tokenId);
    return { shares, unknown };
  }

  /**
   * Asks the venue what these orders matched (one lookup each, none twice at once, none again
   * within LOOKUP_RETRY_MS of a failure); each answer shrinks the doubt and says so (`changed`).
   */
  lookUp(records: readonly OrderRecord[]): void {
    const desk = this.#desk;
    const now = desk.clock.now();
    for (const record of records) {
      const doubt = this.#byToken.get(record.request.tokenId)?.get(record);
      const orderId = record.orderId;
      if (doubt === undefined || orderId === undefined || doubt.matched !== undefined || doubt.lookup === 'asking' || (doubt.lookup ?? 0) > now) continue;
      doubt.lookup = 'asking';
      const ask = (): void => {
        // settled meanwhile (the channel's message, a fill, a read): no lookup
        if (doubt.matched !== undefined || this.#byToken.get(record.request.tokenId)?.get(record) !== doubt) {
          doubt.lookup = undefined;
          return;
        }
        this.#ask(record, orderId, doubt);
      };
      if (this.#lookupDelayMs > 0) desk.subs.add(desk.clock.scheduler.schedule(ask, this.#lookupDelayMs));
      else ask();
    }
  }

  /** One lookup of a closed SELL: its answer shrinks the doubt; a failure lets it be asked again after a pause. */
  #ask(record: OrderRecord, orderId: string, doubt: Doubt): void {
    const desk = this.#desk;
    this.lookups++;
    desk.subs.add(
      desk.execution
        .order(orderId)
        .pipe(
          timeout({ first: LOOKUP_TIMEOUT_MS, scheduler: desk.clock.scheduler }),
          catchError((err: unknown) => {
            desk.log.warn('looking up a cancelled SELL failed; its shares stay in doubt', { orderId, err: String(err) });
            doubt.lookup = desk.clock.now() + LOOKUP_RETRY_MS;
            return of(null);
          }),
        )
        .subscribe((state) => {
          if (state === null) return;
          doubt.lookup = undefined;
          // the venue does not know it: it never traded
          desk.transaction(() => this.#known(record, doubt, state === undefined ? 0 : state.sizeMatched));
        }),
    );
  }

  /** The venue's word on one of our orders once closed there (the user channel's cancellation). */
  venueState(state: VenueOrderState): void {
    const record = this.#desk.tracker.byOrderId(state.orderId);
    if (record === undefined || record.request.side !== 'SELL' || (state.status !== 'CANCELED' && state.status !== 'UNMATCHED' && state.status !== 'MATCHED')) return;
    const doubt = this.#byToken.get(record.request.tokenId)?.get(record);
    if (doubt !== undefined) this.#known(record, doubt, state.sizeMatched);
    // before our cancel's answer closed it: kept for when it does
    else if (OPEN_STATUSES.has(record.status)) this.#told.set(record, state.sizeMatched);
  }

  /**
   * A read of our trades: a complete one that began after a SELL closed has booked every fill of
   * it, so its doubt is gone.
   */
  snapshot(snapshot: FillsSnapshot): void {
    if (!snapshot.complete || snapshot.from === undefined) return;
    const markets = new Set<string>();
    for (const [tokenId, doubts] of this.#byToken) {
      for (const [record, doubt] of doubts) {
        if (doubt.closedAt >= snapshot.from) continue;
        doubts.delete(record);
        markets.add(record.request.conditionId);
      }
      if (doubts.size === 0) this.#byToken.delete(tokenId);
    }
    for (const conditionId of markets) this.#changed(conditionId);
  }

  /** What is left in doubt of one order: what it may have (or did) match beyond its booked fills. */
  #left(record: OrderRecord, doubt: Doubt): Micros {
    return (doubt.matched ?? record.request.size) - this.booked(record);
  }

  /** A fill booked (or the venue's matched size taken): a doubt of the order shrank, or is settled. */
  #filled(record: OrderRecord): void {
    const doubts = this.#byToken.get(record.request.tokenId);
    const doubt = doubts?.get(record);
    if (doubt === undefined) return;
    if (this.#left(record, doubt) <= 0) {
      doubts!.delete(record);
      if (doubts!.size === 0) this.#byToken.delete(record.request.tokenId);
    }
    this.#changed(record.request.conditionId);
  }

  #known(record: OrderRecord, doubt: Doubt, matched: Micros): void {
    doubt.matched = Math.min(record.request.size, Math.max(matched, record.filled));
    // the order's filled size is the venue's (as a sync would set it); told as a fill change
    if (doubt.matched > record.filled) this.#desk.tracker.setFilled(record, doubt.matched, this.#desk.clock.now());
    else this.#filled(record);
  }

  /** A SELL that closed may hold shares the venue sold and we have not booked: kept until settled. */
  #statusChanged(record: OrderRecord): void {
    const r = record.request;
    if (r.side !== 'SELL' || record.orderId === undefined) return;
    const status = record.status;
    // FILLED: it matched all of it; cancelled or expired: unknown how much (a partial fill may be on its way)
    if (status !== 'FILLED' && status !== 'CANCELED' && status !== 'EXPIRED') return;
    const told = this.#told.get(record);
    const doubt: Doubt = { closedAt: this.#desk.clock.now(), matched: status === 'FILLED' ? r.size : told === undefined ? undefined : Math.max(told, record.filled), lookup: undefined };
    if (this.#left(record, doubt) <= 0) return;
    let doubts = this.#byToken.get(r.tokenId);
    if (doubts === undefined) {
      doubts = new Map();
      this.#byToken.set(r.tokenId, doubts);
    }
    doubts.set(record, doubt);
    // the order's filled size is the venue's, as a lookup's answer sets it
    if (doubt.matched !== undefined && doubt.matched > record.filled) this.#desk.tracker.setFilled(record, doubt.matched, this.#desk.clock.now());
  }
}
