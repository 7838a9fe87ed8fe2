import type { Clock } from '../core/clock.ts';
import { VenueRejectError } from '../core/errors.ts';
import type { ConditionId } from '../core/types.ts';
import type { StrategyLogger } from '../strategy/api.ts';

/**
 * The venue's own figure of our share (live: `GET /rewards/user/percentages`, one request for
 * every market): percent (0 to 100) by condition id; a market not listed is 0.
 */
export type VenueShareSource = () => Promise<ReadonlyMap<ConditionId, number>>;

/** Where a sample's share came from: the venue's figure, or the model's estimate. */
export type ShareSource = 'venue' | 'model';

/**
 * Reads the venue's figure of our reward share for one sample instant (docs/rewards.md "Our
 * accrual"): never before the instant on the clock, each kind of trouble logged once a run, and a
 * venue without the route (404) not asked again.
 */
export class VenueShareReader {
  readonly #source: VenueShareSource;
  readonly #clock: Clock;
  readonly #sampleMs: number;
  readonly #log: Pick<StrategyLogger, 'warn'> | undefined;
  /** What was already logged (each kind once a run). */
  readonly #logged = new Set<string>();
  #asking = true;
  /** The read started at this clock reading: samples taken together (a late timer's burst) share it. */
  #burst: { readonly now: number; readonly answer: Promise<Map<string, number> | undefined> } | undefined;

  constructor(source: VenueShareSource, clock: Clock, sampleMs: number, log: Pick<StrategyLogger, 'warn'> | undefined) {
    this.#source = source;
    this.#clock = clock;
    this.#sampleMs = sampleMs;
    this.#log = log;
  }

  /** False once the venue said it has no such route. */
  get asking(): boolean {
    return this.#asking;
  }

  /**
   * The venue's figure for the sample at `at`, as shares 0 to 1 by lowercase condition id; or
   * undefined when the read failed (the model's share then). An answer that comes after the next
   * sample instant may be that instant's figure rather than this one's (one sample apart): it is
   * still taken, closer than the model's, and logged once. Samples taken at one clock reading (a
   * timer running late takes every instant due) share one read: the venue has one figure now.
   */
  read(at: number): Promise<Map<string, number> | undefined> {
    const now = this.#clock.now();
    if (this.#burst?.now === now) return this.#burst.answer;
    const answer = this.#read(at);
    this.#burst = { now, answer };
    return answer;
  }

  async #read(at: number): Promise<Map<string, number> | undefined> {
    // never before the instant: a timer may fire a moment early against the clock
    const early = at - this.#clock.now();
    if (early > 0) await new Promise<void>((resolve) => this.#clock.scheduler.schedule(() => resolve(), early + 1));
    try {
      const shares = await this.#source();
      if (this.#clock.now() >= at + this.#sampleMs) this.#logOnce('late', "reward share: the venue's figure came after the next sample instant (it may be that instant's)", { sampleAt: at });
      const out = new Map<string, number>();
      for (const [conditionId, percent] of shares) out.set(conditionId.toLowerCase(), percent / 100);
      return out;
    } catch (err) {
      if (err instanceof VenueRejectError && err.status === 404) this.#asking = false;
      this.#logOnce(`failed:${err instanceof VenueRejectError ? err.status : 'other'}`, "reward share: the venue's figure could not be read; the model's share is used", {
        error: err instanceof Error ? err.message : String(err),
        stopped: !this.#asking,
      });
      return undefined;
    }
  }

  #logOnce(kind: string, msg: string, fields: Record<string, unknown>): void {
    if (this.#logged.has(kind)) return;
    this.#logged.add(kind);
    this.#log?.warn(msg, fields);
  }
}
