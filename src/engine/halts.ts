import { HALT_NAMES, type HaltName } from '../core/events.ts';

export { HALT_NAMES, type HaltName } from '../core/events.ts';

/**
 * Whether a halt lifts by a `resume` command (liftable) or only ends with the run (latched):
 * a fault of our own process, the kill switch and a venue that refused us are not undone by a
 * signal or a file; a person who halted by hand, by file or by signal lifts it the same way.
 */
export const HALT_LATCHED: Readonly<Record<HaltName, boolean>> = Object.freeze({
  manual: false,
  file: false,
  signal: false,
  killSwitch: true,
  fault: true,
  venue: true,
});

/** One halt that is on. */
export interface ActiveHalt {
  readonly name: HaltName;
  readonly reason: string;
  /** When it was raised (the run's clock, epoch ms). */
  readonly since: number;
  readonly latched: boolean;
}

/**
 * The run's halts by name: trading is halted while any is on. Each is raised and lifted on its
 * own, so removing the halt file lifts the file's halt and leaves a SIGUSR2 halt on. A latched
 * halt refuses to lift.
 */
export class Halts {
  readonly #on = new Map<HaltName, ActiveHalt>();
  /** The texts read on every order batch, made when the halts change. */
  #reason: string | undefined;
  #described: string | undefined;

  static isName(name: unknown): name is HaltName {
    return typeof name === 'string' && (HALT_NAMES as readonly string[]).includes(name);
  }

  /** Raises a halt; false when it was on already (its reason is then updated). */
  raise(name: HaltName, reason: string, at: number): boolean {
    const was = this.#on.get(name);
    this.#on.set(name, { name, reason, since: was?.since ?? at, latched: HALT_LATCHED[name] });
    this.#changed();
    return was === undefined;
  }

  /** Lifts a halt: `lifted`, `off` (it was not on) or `latched` (it stays on). */
  lift(name: HaltName): 'lifted' | 'off' | 'latched' {
    const halt = this.#on.get(name);
    if (halt === undefined) return 'off';
    if (halt.latched) return 'latched';
    this.#on.delete(name);
    this.#changed();
    return 'lifted';
  }

  get halted(): boolean {
    return this.#on.size > 0;
  }

  has(name: HaltName): boolean {
    return this.#on.has(name);
  }

  /** Every halt on, in the order raised. */
  active(): readonly ActiveHalt[] {
    return [...this.#on.values()];
  }

  names(): readonly HaltName[] {
    return [...this.#on.keys()];
  }

  /** The reasons of the halts on, joined with `; `; undefined when trading is not halted. */
  get reason(): string | undefined {
    return this.#reason;
  }

  /** Each halt on as `reason (name)`, joined: what a denial says. */
  get described(): string | undefined {
    return this.#described;
  }

  #changed(): void {
    const on = [...this.#on.values()];
    this.#reason = on.length === 0 ? undefined : on.map((h) => h.reason).join('; ');
    this.#described = on.length === 0 ? undefined : on.map((h) => `${h.reason} (${h.name} halt)`).join('; ');
  }
}
