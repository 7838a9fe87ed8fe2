import type { HaltName, LifecycleEvent } from '../core/events.ts';
import { checkStrategyParams } from '../strategy/strategy-params.ts';
import type { CommandResult, EngineCommand } from './commands.ts';
import type { EngineDesk } from './engine-desk.ts';
import { DEFAULT_FLATTEN_BAND_CENTS, MAX_FLATTEN_BAND_CENTS, type Flattener } from './flattener.ts';
import { Halts } from './halts.ts';
import type { OrderCanceller } from './order-canceller.ts';
import type { StrategyHost } from './strategy-host.ts';

export interface CommandRunnerParts {
  readonly desk: EngineDesk;
  readonly host: StrategyHost;
  readonly canceller: OrderCanceller;
  readonly halts: Halts;
  /** Tells the strategies (and the bus) of a lifecycle event. */
  readonly tell: (event: LifecycleEvent) => void;
  /** A halt cancels our resting orders (default true). */
  readonly cancelOnHalt: boolean;
  /** Each strategy's params as the config wrote them (updateParams sets keys over these). */
  readonly configParams: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /** Closes every position (the flatten command, after its halt and cancels). */
  readonly flattener: Flattener;
}

/**
 * Applies the engine's commands (commands.ts), one at a time and in the order given: a command
 * given while one is being applied (a strategy's hook reacting to `Halted`, say) waits for it to
 * end. Each is logged, put on the bus (the journal keeps it) and answered with what it did.
 */
export class CommandRunner {
  readonly #p: CommandRunnerParts;
  readonly #queue: { command: EngineCommand; done: (result: CommandResult) => void }[] = [];
  #applying = false;
  /** Params as last set, as written (the base of the next update). */
  readonly #written = new Map<string, Readonly<Record<string, unknown>>>();

  constructor(parts: CommandRunnerParts) {
    this.#p = parts;
    for (const [id, params] of parts.configParams) this.#written.set(id, params);
  }

  /**
   * Applies a command and returns what it did. Given while another is being applied, it is
   * applied right after that one, and the answer says it was queued.
   */
  run(command: EngineCommand): CommandResult {
    let result: CommandResult | undefined;
    this.#queue.push({ command, done: (r) => (result = r) });
    if (this.#applying) return { ok: true, command: command.type, message: 'queued behind the command being applied' };
    this.#applying = true;
    try {
      for (let next = this.#queue.shift(); next !== undefined; next = this.#queue.shift()) next.done(this.#apply(next.command));
    } finally {
      this.#applying = false;
    }
    return result!;
  }

  #apply(command: EngineCommand): CommandResult {
    const { desk } = this.#p;
    const result = desk.transaction(() => {
      const r = this.#dispatch(command);
      desk.emit({ type: 'command', command, result: r, at: desk.clock.now() });
      return r;
    });
    if (result.ok) desk.log.info('command applied', { command: command.type, result: result.message });
    else desk.log.warn('command refused', { command: command.type, result: result.message });
    return result;
  }

  #dispatch(command: EngineCommand): CommandResult {
    // once the engine stops, its stop cancels and verifies: only halts are still noted
    if (this.#p.desk.stopped && command.type !== 'halt' && command.type !== 'resume') {
      return { ok: false, command: command.type, message: 'the engine has stopped' };
    }
    switch (command.type) {
      case 'halt':
        return this.#halt(command.name, command.reason);
      case 'resume':
        return this.#resume(command.name);
      case 'stopStrategy':
        return this.#stopStrategy(command.strategyId);
      case 'startStrategy':
        return this.#startStrategy(command.strategyId);
      case 'cancelAll': {
        const n = this.#cancelOpen(command.strategyId);
        return { ok: true, command: 'cancelAll', message: `${n} open order(s) of ${command.strategyId ?? 'the run'} being cancelled`, cancelled: n };
      }
      case 'updateParams':
        return this.#updateParams(command.strategyId, command.params);
      case 'flatten':
        return this.#flatten(command.bandCents);
    }
  }

  #halt(name: HaltName, reason: string): CommandResult {
    const { desk, halts } = this.#p;
    if (!Halts.isName(name)) return { ok: false, command: 'halt', message: `no halt named '${String(name)}' (one of manual, file, signal, killSwitch, fault, venue)` };
    const at = desk.clock.now();
    if (!halts.raise(name, reason, at)) return { ok: true, command: 'halt', message: `the ${name} halt was on already (reason now: ${reason})`, halts: halts.names() };
    desk.log.warn('trading halted', { halt: name, reason, halts: halts.names() });
    const cancelled = this.#p.cancelOnHalt && !desk.stopped ? this.#cancelOpen(undefined) : 0;
    this.#p.tell({ type: 'Halted', name, reason, halts: halts.names(), tsInit: at });
    const kept = this.#p.cancelOnHalt ? `${cancelled} resting order(s) being cancelled` : 'resting orders kept (execution.cancelOnHalt: false)';
    return { ok: true, command: 'halt', message: `${name} halt on (${reason}); ${kept}`, cancelled, halts: halts.names() };
  }

  #resume(name: HaltName): CommandResult {
    const { desk, halts } = this.#p;
    if (!Halts.isName(name)) return { ok: false, command: 'resume', message: `no halt named '${String(name)}' (one of manual, file, signal, killSwitch, fault, venue)` };
    const lifted = halts.lift(name);
    if (lifted === 'off') return { ok: true, command: 'resume', message: `the ${name} halt was not on${halts.halted ? ` (still halted: ${halts.names().join(', ')})` : ''}`, halts: halts.names() };
    if (lifted === 'latched') return { ok: false, command: 'resume', message: `the ${name} halt is latched: it ends only with the run`, halts: halts.names() };
    if (halts.halted) {
      desk.log.info('halt lifted, still halted', { halt: name, halts: halts.names() });
      return { ok: true, command: 'resume', message: `the ${name} halt lifted; still halted by ${halts.names().join(', ')}`, halts: halts.names() };
    }
    desk.log.info('trading resumed', { halt: name });
    this.#p.tell({ type: 'Resumed', name, tsInit: desk.clock.now() });
    return { ok: true, command: 'resume', message: `the ${name} halt lifted; trading resumed`, halts: [] };
  }

  #stopStrategy(id: string): CommandResult {
    const { host } = this.#p;
    if (!host.has(id)) return { ok: false, command: 'stopStrategy', message: `no strategy '${id}'` };
    if (!host.stopOne(id)) return { ok: true, command: 'stopStrategy', message: `strategy '${id}' was not running (${host.state(id)})` };
    // its onStop ran (its intents went out); nobody manages its orders now
    const n = this.#cancelOpen(id);
    return { ok: true, command: 'stopStrategy', message: `strategy '${id}' stopped; ${n} open order(s) of it being cancelled`, cancelled: n };
  }

  #startStrategy(id: string): CommandResult {
    const { host } = this.#p;
    if (!host.has(id)) return { ok: false, command: 'startStrategy', message: `no strategy '${id}'` };
    const state = host.state(id);
    if (state === 'RUNNING') return { ok: true, command: 'startStrategy', message: `strategy '${id}' was running already` };
    if (state === 'CREATED') return { ok: false, command: 'startStrategy', message: `strategy '${id}' starts with the engine (not started yet)` };
    const started = host.restart(id);
    // started while halted: it hears so, as the strategies of a run started halted do
    const halts = this.#p.halts.active();
    if (started && halts.length > 0) {
      const last = halts[halts.length - 1]!;
      host.tellOne(id, { type: 'Halted', name: last.name, reason: last.reason, halts: this.#p.halts.names(), tsInit: this.#p.desk.clock.now() });
    }
    return started
      ? { ok: true, command: 'startStrategy', message: `strategy '${id}' started again (fresh state)` }
      : { ok: false, command: 'startStrategy', message: `strategy '${id}' faulted as it started again (${host.state(id)})` };
  }

  #updateParams(id: string, patch: Readonly<Record<string, unknown>>): CommandResult {
    const { host } = this.#p;
    const definition = host.definition(id);
    if (definition === undefined) return { ok: false, command: 'updateParams', message: `no strategy '${id}'` };
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return { ok: false, command: 'updateParams', message: `strategies.${id}.params: the update must be a mapping of keys to values` };
    const keys = Object.keys(patch);
    if (keys.length === 0) return { ok: false, command: 'updateParams', message: `strategies.${id}.params: nothing to update` };
    const updatable = definition.updatable ?? [];
    const refused = keys.filter((k) => !updatable.includes(k));
    if (refused.length > 0) {
      const allowed = updatable.length > 0 ? `updatable: ${updatable.join(', ')}` : `strategy '${definition.name}' marks no key updatable`;
      return { ok: false, command: 'updateParams', message: `strategies.${id}.params.${refused[0]}: not updatable while the strategy runs (${allowed})`, changed: [] };
    }
    const base = this.#written.get(id) ?? ((host.params(id) ?? {}) as Readonly<Record<string, unknown>>);
    const written = { ...base, ...patch };
    const checked = checkStrategyParams(definition, written);
    if (!checked.ok) {
      const issue = checked.issues[0]!;
      const path = ['strategies', id, 'params', ...issue.path.map(String)].join('.');
      return { ok: false, command: 'updateParams', message: `${path}: ${issue.message}`, changed: [] };
    }
    this.#written.set(id, Object.freeze(written));
    host.setParams(id, checked.value);
    this.#p.tell({ type: 'ParamsUpdated', strategyId: id, changed: Object.freeze(keys), tsInit: this.#p.desk.clock.now() });
    return { ok: true, command: 'updateParams', message: `strategies.${id}.params: ${keys.join(', ')} updated`, changed: keys };
  }

  #flatten(bandCents: number | undefined): CommandResult {
    const band = bandCents ?? DEFAULT_FLATTEN_BAND_CENTS;
    if (typeof band !== 'number' || !Number.isInteger(band) || band < 0 || band > MAX_FLATTEN_BAND_CENTS) {
      return { ok: false, command: 'flatten', message: `bandCents: ${JSON.stringify(band)} is not a whole number of cents from 0 to ${MAX_FLATTEN_BAND_CENTS}` };
    }
    const { flattener } = this.#p;
    if (flattener.active) return { ok: false, command: 'flatten', message: 'a flatten is under way already' };
    // begun before its halt, so the health never reads the halt without the flatten (blocked, not reduceOnly);
    // it acts on a later turn, once the halt is on and the cancels asked for
    const positions = flattener.begin(band);
    const halt = this.#halt('manual', 'flatten');
    // with execution.cancelOnHalt false the halt kept them: a flatten cancels them all the same
    const cancelled = (halt.cancelled ?? 0) + this.#cancelOpen(undefined);
    return {
      ok: true,
      command: 'flatten',
      phase: 'started',
      cancelled,
      halts: halt.halts,
      message: `flatten started: manual halt on; ${cancelled} open order(s) being cancelled; ${positions} position(s) to SELL no lower than ${band} cent(s) under the best bid`,
    };
  }

  /** Asks every open order of ours (of one strategy) to be cancelled; returns how many. */
  #cancelOpen(strategyId: string | undefined): number {
    const { desk, canceller } = this.#p;
    let n = 0;
    for (const record of desk.tracker.open(strategyId === undefined ? undefined : { strategyId })) {
      if (record.status === 'CANCEL_PENDING' || record.cancelWhenLive) continue;
      canceller.request(record);
      n++;
    }
    return n;
  }
}
