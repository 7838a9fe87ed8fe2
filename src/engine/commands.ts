import type { HaltName } from '../core/events.ts';

/**
 * What an operator (or the run's own watchers: the halt file, SIGUSR2, a fatal fault) asks of a
 * running engine. `engine.command(cmd)` applies each at once, in the order given, journals it
 * with its result (the store's journal, type `Command`) and answers what it did.
 */
export type EngineCommand =
  /** Raises a named halt: new orders denied, resting orders cancelled unless `execution.cancelOnHalt` is false, strategies told (`Halted`). */
  | { readonly type: 'halt'; readonly name: HaltName; readonly reason: string }
  /** Lifts a named halt (a latched one refuses); strategies hear `Resumed` once no halt is left. */
  | { readonly type: 'resume'; readonly name: HaltName }
  /** Stops one strategy (its onStop runs, then its open orders are cancelled); the others run on. */
  | { readonly type: 'stopStrategy'; readonly strategyId: string }
  /** Starts a strategy stopped by command (or faulted) again, with fresh state (`init`, then `onStart`). */
  | { readonly type: 'startStrategy'; readonly strategyId: string }
  /** Cancels every open order of ours (one strategy's with `strategyId`). Trading goes on. */
  | { readonly type: 'cancelAll'; readonly strategyId?: string }
  /**
   * Changes params of a running strategy: only keys its definition lists as `updatable`, checked
   * with the config's checks (its schema over the params with these set); the strategy is told
   * (`ParamsUpdated`) and `ctx.params` is the new value.
   */
  | { readonly type: 'updateParams'; readonly strategyId: string; readonly params: Readonly<Record<string, unknown>> }
  /**
   * Closes every position of the run (flattener.ts): raises the `manual` halt (reason `flatten`)
   * and cancels our open orders; once none is open, SELLs each strategy's positions with
   * fill-and-kill limit orders no lower than `bandCents` (default 5) under the best bid; once
   * those are answered, verifies no position is left and says so in a second `command` event
   * (the journal keeps both). Trading stays halted: `resume` (manual) trades again.
   */
  | { readonly type: 'flatten'; readonly bandCents?: number };

export type EngineCommandType = EngineCommand['type'];

/** The command types, in the order of the union. */
export const ENGINE_COMMAND_TYPES: readonly EngineCommandType[] = ['halt', 'resume', 'stopStrategy', 'startStrategy', 'cancelAll', 'updateParams', 'flatten'];

/** What a command did: `ok` false when it was refused (nothing changed), `message` one line either way. */
export interface CommandResult {
  readonly ok: boolean;
  readonly command: EngineCommandType;
  /** What was done, or why nothing was: one line for a log, an API answer or the journal. */
  readonly message: string;
  /** Orders asked to be cancelled by this command. */
  readonly cancelled?: number;
  /** updateParams: the keys that changed. */
  readonly changed?: readonly string[];
  /** halt, resume: the halts on after the command. */
  readonly halts?: readonly HaltName[];
  /** flatten: `started` answers the command; `verified` ends it (a second `command` event on the bus). */
  readonly phase?: 'started' | 'verified';
  /** flatten: SELL orders placed to close positions (at `verified`). */
  readonly orders?: number;
  /** flatten: the positions still held once it ended (none: the run is flat), sizes in micros. */
  readonly left?: readonly FlattenLeft[];
}

/** A position a flatten could not close (no bid within its band, a denial, a rejection). */
export interface FlattenLeft {
  readonly strategyId: string;
  readonly tokenId: string;
  /** Shares still held, micros. */
  readonly size: number;
  /** Why it could not be sold, when known (no bid within the band, a denial's or rejection's reason). */
  readonly why?: string;
}
