import { dirname, resolve } from 'node:path';
import { tap } from 'rxjs';
import type { Micros } from '../core/fixed.ts';
import type { FillEvent, OrderEvent, OrderSnapshot } from '../core/events.ts';
import type { BasketEvent } from '../core/basket-events.ts';
import type { OrderIntent } from '../core/intents.ts';
import { parseConfig } from '../config/load-config.ts';
import type { BacktestConfig } from '../config/run-config.ts';
import type { StrategyDefinition } from '../strategy/api.ts';
import { checkDefinition, importStrategyModule } from '../strategy/loader.ts';
import type { PositionView } from '../portfolio/portfolio.ts';
import type { BacktestData } from '../backtest/backtest-data.ts';
import { openBacktestData } from '../backtest/data-file.ts';
import type { BacktestSummary } from '../backtest/summary.ts';
import { runBacktest, type BacktestInput } from '../app/run-backtest.ts';

type EngineLogger = NonNullable<BacktestInput['log']>;
import type { ScriptedBooks } from './scripted-books.ts';
import { TestingError } from './testing-error.ts';

export interface RunStrategyOptions {
  /** The market data: a script (`scriptedBooks()`) or a recording file (exactly one of the two). */
  readonly books?: ScriptedBooks;
  readonly recording?: string;
  /** The strategy's params, parsed by its own schema as a config's would be. */
  readonly params?: Readonly<Record<string, unknown>>;
  /** The strategy's id (tags its orders); default 'strategy'. */
  readonly id?: string;
  /** Starting collateral; default 10000. */
  readonly balance?: string | number;
  /** One-way latency to the simulated venue, ms; default 0 (a config's default is 100). */
  readonly latencyMs?: number;
  /** The fill model's queue position (docs/fill-model.md); default 'conservative'. */
  readonly queueModel?: BacktestConfig['queueModel'];
  /** Further sections of a backtest config (`risk`, `execution`, `data`, `backtest`), as its YAML would hold them. */
  readonly config?: Readonly<Record<string, unknown>>;
}

/** An intent the strategy returned: from which hook (or `stream`), when. */
export interface RecordedIntent {
  /** Virtual time, epoch ms. */
  readonly at: number;
  /** Ms after the start of the data. */
  readonly t: number;
  readonly hook: string;
  readonly intent: OrderIntent;
}

/** What a strategy did in one run, for assertions. Prices and sizes are Micros (`fromMicros` shows them as text). */
export interface StrategyRun {
  /** Every intent the strategy returned, in order. */
  readonly intents: readonly RecordedIntent[];
  /** Every order the engine made for it (a risk denial makes none), in the order made, with its final status (and its intent's `ref` and `group`). */
  readonly orders: readonly OrderSnapshot[];
  /** Fills, as the strategy received them. */
  readonly fills: readonly FillEvent[];
  /** Order events, as the strategy received them (denials carry their DenyCode; each its order's `ref` and `group`). */
  readonly orderEvents: readonly OrderEvent[];
  /** Its baskets' outcomes (what `onBasket` heard), in order. */
  readonly baskets: readonly BasketEvent[];
  /** Order events and fills together, in the order the strategy received them (causal). */
  readonly events: readonly (OrderEvent | FillEvent)[];
  /** The strategy's own positions at the end (tokens ever held; size 0 once closed). */
  readonly positions: readonly PositionView[];
  /** Free collateral at the end. */
  readonly cash: Micros;
  /** The strategy's state at the end: RUNNING, STOPPED or FAULTED. */
  readonly state: string | undefined;
  /**
   * The strategy's own state at the end: what its `init` returned (the `state` every hook got),
   * as the hooks left it; undefined without `init`.
   */
  readonly strategyState: unknown;
  /** Every line the strategy logged (`ctx.log`), in order, with the virtual time it was logged at. */
  readonly logs: readonly StrategyLogLine[];
  /** Faults of the strategy's hooks, each with its message and stack. */
  readonly faults: readonly { readonly message: string; readonly stack: string | undefined; readonly at: number }[];
  /** The backtest summary, as `clobot backtest` writes it. */
  readonly summary: BacktestSummary;
}

/** One line a strategy logged through `ctx.log`. */
export interface StrategyLogLine {
  /** Virtual time, epoch ms. */
  readonly at: number;
  /** Ms after the start of the data. */
  readonly t: number;
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly msg: string;
  /** The fields given with the message (none: empty). */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** A strategy: its definition (what a module default-exports), or the path of its module. */
export type StrategyUnderTest = string | object;

const HOOKS = ['onStart', 'onBook', 'onPrice', 'onTrade', 'onWalletTrade', 'onFill', 'onOrderEvent', 'onLifecycle', 'onTimer', 'onBasket', 'onStop'] as const;
type Hook = (this: unknown, args: { readonly ctx: { readonly clock: { now(): number } } } & Record<string, unknown>) => unknown;

/** What the wrapped hooks saw of the strategy's own state: the newest `state` a hook (or `init`) had. */
interface SeenState {
  value: unknown;
}

/**
 * Runs a strategy on scripted books or a recording in virtual time, through the real backtest
 * (the same engine, risk checks and simulated venue as `clobot backtest`), and returns what
 * happened: intents, orders with their final status, fills and order events in the order the
 * strategy received them, positions and cash. The same inputs give the same run.
 */
export async function runStrategy(strategy: StrategyUnderTest, options: RunStrategyOptions): Promise<StrategyRun> {
  const data = await dataOf(options);
  const id = options.id ?? 'strategy';
  const modulePath = typeof strategy === 'string' ? resolve(strategy) : undefined;
  const extra = options.config ?? {};
  const backtest = { ...(extra['backtest'] as object | undefined) } as Record<string, unknown>;
  backtest['balance'] ??= options.balance ?? 10_000;
  backtest['latencyMs'] ??= options.latencyMs ?? 0;
  backtest['queueModel'] ??= options.queueModel ?? 'conservative';
  const file = resolve(modulePath !== undefined ? dirname(modulePath) : process.cwd(), 'clobot-testing.yaml');
  // every market of the data unless the config says which
  const dataSection = { markets: { filter: { maxCount: Math.min(10_000, Math.max(1, data.header.markets.length)) } }, ...(extra['data'] as object | undefined) };
  const text = JSON.stringify({
    ...extra,
    mode: 'backtest',
    data: dataSection,
    strategies: [{ id, module: modulePath ?? 'clobot-testing-definition.ts', params: options.params ?? {} }],
    backtest,
  });
  const config = parseConfig(text, file, {}, { cwd: dirname(file) });
  const source = config.strategies[0]!;
  const definition = modulePath !== undefined ? await importStrategyModule(source) : checkDefinition(strategy, 'runStrategy');

  const start = data.header.createdAt;
  const intents: RecordedIntent[] = [];
  const events: (OrderEvent | FillEvent)[] = [];
  const baskets: BasketEvent[] = [];
  const faults: { message: string; stack: string | undefined; at: number }[] = [];
  const record = (hook: string, at: number, out: unknown): void => {
    if (out === undefined || out === null) return;
    for (const intent of Array.isArray(out) ? (out as unknown[]) : [out]) intents.push({ at, t: at - start, hook, intent: intent as OrderIntent });
  };
  let orders: OrderSnapshot[] = [];
  let positions: PositionView[] = [];
  let cash: Micros = 0;
  let state: string | undefined;
  const seen: SeenState = { value: undefined };
  const logs: StrategyLogLine[] = [];
  const clock = { now: (): number => start };
  const result = await runBacktest({
    config,
    data,
    log: capturingLogger(id, logs, clock, start),
    // a line's replayed time is its own `at` here, not a field
    logReplayTime: false,
    definitions: { [id]: observed(definition, record, events, baskets, seen) },
    onBuilt: (engine) => {
      clock.now = () => engine.clock.now();
    },
    onEvent: (event) => {
      if (event.type === 'fault' && event.strategyId === id) faults.push({ message: event.message, stack: event.stack, at: event.at });
    },
    onStopped: (engine) => {
      orders = [...engine.tracker.all()].filter((o) => o.request.strategyId === id).map((o) => engine.tracker.snapshot(o));
      positions = engine.ledger.positions(id);
      cash = engine.portfolio.balance();
      state = engine.strategyState(id);
    },
  });
  return {
    intents,
    orders,
    fills: events.filter((e): e is FillEvent => e.type === 'OrderFilled'),
    orderEvents: events.filter((e): e is OrderEvent => e.type !== 'OrderFilled'),
    baskets,
    events,
    positions,
    cash,
    state,
    strategyState: seen.value,
    logs,
    faults,
    summary: result.summary,
  };
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/**
 * An engine logger that keeps the lines of one strategy (those logged through a child bound to
 * `strategy: id`, as `ctx.log` is) and drops the engine's own.
 */
function capturingLogger(id: string, into: StrategyLogLine[], clock: { now(): number }, start: number, bindings: Record<string, unknown> = {}): EngineLogger {
  const mine = bindings['strategy'] === id;
  const line = (level: StrategyLogLine['level']) => (msg: string, fields?: Record<string, unknown>) => {
    if (!mine) return;
    const at = clock.now();
    into.push(Object.freeze({ at, t: at - start, level, msg: String(msg), fields: Object.freeze({ ...(fields ?? {}) }) }));
  };
  const out = Object.fromEntries(LEVELS.map((l) => [l, line(l)])) as unknown as Omit<EngineLogger, 'child'>;
  return { ...out, child: (more: Record<string, unknown>) => capturingLogger(id, into, clock, start, { ...bindings, ...more }) };
}

async function dataOf(options: RunStrategyOptions): Promise<BacktestData> {
  if ((options.books === undefined) === (options.recording === undefined)) {
    throw new TestingError('runStrategy: give exactly one of `books` (a scriptedBooks() script) and `recording` (a recording file)');
  }
  if (options.books !== undefined) return options.books.toData();
  return openBacktestData(options.recording!);
}

/**
 * The definition with each hook (and the stream) wrapped to record what goes in and out: the
 * intents it returns, the fills, order events and basket outcomes it receives (onFill,
 * onOrderEvent and onBasket are added when the strategy has none; they return nothing). The strategy's own hooks run unchanged, with
 * the same arguments and `this`.
 */
function observed(
  definition: StrategyDefinition,
  record: (hook: string, at: number, out: unknown) => void,
  events: (OrderEvent | FillEvent)[],
  baskets: BasketEvent[],
  seen: SeenState,
): StrategyDefinition {
  const own = definition as unknown as Readonly<Record<string, unknown>>;
  const wrapped: Record<string, unknown> = { ...own };
  const init = own['init'] as ((this: unknown, args: unknown) => unknown) | undefined;
  if (init !== undefined) {
    wrapped['init'] = function (this: unknown, args: unknown): unknown {
      const made = init.call(this, args);
      seen.value = made;
      return made;
    };
  }
  for (const name of HOOKS) {
    const hook = own[name] as Hook | undefined;
    wrapped[name] = function (this: unknown, args: Parameters<Hook>[0]): unknown {
      if ('state' in args) seen.value = args['state'];
      if (name === 'onFill') events.push(args['fill'] as FillEvent);
      if (name === 'onOrderEvent') events.push(args['event'] as OrderEvent);
      if (name === 'onBasket') baskets.push(args['event'] as BasketEvent);
      if (hook === undefined) return undefined;
      const out = hook.call(this, args);
      record(name, args.ctx.clock.now(), out);
      return out;
    };
    if (hook === undefined && name !== 'onFill' && name !== 'onOrderEvent' && name !== 'onBasket') delete wrapped[name];
  }
  if (definition.stream !== undefined) {
    wrapped['stream'] = (streams: Parameters<NonNullable<StrategyDefinition['stream']>>[0]) => {
      seen.value = streams.state;
      return definition.stream!(streams).pipe(tap((intent) => record('stream', streams.ctx.clock.now(), intent)));
    };
  }
  return Object.freeze(wrapped) as unknown as StrategyDefinition;
}
