import { Subject, Subscription, type Observable } from 'rxjs';
import type { StrategyError } from '../core/errors.ts';
import type { OrderBook, TokenPrices, TradePrint, WalletTrade } from '../core/types.ts';
import type { BasketEvent, FillEvent, LifecycleEvent, MarketSnapshot, OrderEvent, StrategyContext, StrategyDefinition, StrategyHooks } from './api.ts';
import { basketProblem } from './basket-check.ts';
import type { OrderIntent } from '../core/intents.ts';
import { StrategyFault } from './strategy-fault.ts';

export type StrategyState = 'CREATED' | 'RUNNING' | 'FAULTED' | 'STOPPED';

type HookName = keyof StrategyHooks<unknown>;

/**
 * Runs one strategy behind a guard. Every call into user code is wrapped: a throw (or an invalid
 * return) marks the strategy FAULTED, stops it and is reported through `onFault`; the loop and
 * the other strategies go on. Hooks are synchronous and return intents, which go to `emit`.
 * The runner holds the strategy's state for this run (what `init` returned) and hands it to
 * every hook.
 */
export class StrategyRunner<P = unknown, S = unknown> {
  state: StrategyState = 'CREATED';
  fault: StrategyError | undefined;
  // replaced when the strategy starts again (a completed Subject cannot be fed)
  #books = new Subject<{ market: MarketSnapshot; book: OrderBook }>();
  #prices = new Subject<{ market: MarketSnapshot; prices: TokenPrices }>();
  #trades = new Subject<{ market: MarketSnapshot; trade: TradePrint }>();
  #walletTrades = new Subject<WalletTrade>();
  #fills = new Subject<FillEvent>();
  #events = new Subject<OrderEvent>();
  #lifecycle = new Subject<LifecycleEvent>();
  #baskets = new Subject<BasketEvent>();
  /** The strategy's own state for this run (`init`'s result). */
  #state: S | undefined;
  #streamSub: Subscription | undefined;

  constructor(
    readonly id: string,
    readonly definition: StrategyDefinition<P, S>,
    readonly ctx: StrategyContext<P>,
    private readonly emit: (strategyId: string, intents: readonly OrderIntent[]) => void,
    private readonly onFault: (strategyId: string, error: StrategyError) => void,
    /** A hook that throws is reported and the strategy runs on (backtests that keep going); a stream's error still stops it. */
    private readonly keepGoing = false,
  ) {}

  get running(): boolean {
    return this.state === 'RUNNING';
  }

  start(): void {
    if (this.state !== 'CREATED') return;
    this.state = 'RUNNING';
    // both are called with the definition as `this`, so reading them off it unbound is safe
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const init = this.definition.init;
    if (init) {
      try {
        this.#state = init.call(this.definition, { ctx: this.ctx });
      } catch (err) {
        this.#fail('init', err);
        return;
      }
    }
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const stream = this.definition.stream;
    if (stream) {
      try {
        const intents$: Observable<OrderIntent> = stream.call(this.definition, {
          ctx: this.ctx,
          state: this.#state as S,
          books$: this.#books.asObservable(),
          prices$: this.#prices.asObservable(),
          trades$: this.#trades.asObservable(),
          walletTrades$: this.#walletTrades.asObservable(),
          fills$: this.#fills.asObservable(),
          orderEvents$: this.#events.asObservable(),
          lifecycle$: this.#lifecycle.asObservable(),
          baskets$: this.#baskets.asObservable(),
        });
        this.#streamSub = intents$.subscribe({
          next: (intent) => this.#deliver('stream', intent),
          error: (err: unknown) => this.#fail('stream', err),
        });
      } catch (err) {
        this.#fail('stream', err);
        return;
      }
    }
    this.call('onStart', { ctx: this.ctx, state: this.#state });
  }

  // the streams are fed only when a stream strategy subscribed to them (most strategies are
  // callbacks only, and an unobserved Subject still costs a closure and a call per event)
  book(market: MarketSnapshot, book: OrderBook): void {
    if (!this.running) return;
    if (this.#books.observed) this.#books.next({ market, book });
    this.call('onBook', { ctx: this.ctx, state: this.#state, market, book });
  }

  prices(market: MarketSnapshot, prices: TokenPrices): void {
    if (!this.running) return;
    if (this.#prices.observed) this.#prices.next({ market, prices });
    this.call('onPrice', { ctx: this.ctx, state: this.#state, market, prices });
  }

  trade(market: MarketSnapshot, trade: TradePrint): void {
    if (!this.running) return;
    if (this.#trades.observed) this.#trades.next({ market, trade });
    // most strategies have no onTrade: no arguments object for each print then
    if (this.definition.onTrade !== undefined) this.call('onTrade', { ctx: this.ctx, state: this.#state, market, trade });
  }

  walletTrade(trade: WalletTrade): void {
    if (!this.running) return;
    if (this.#walletTrades.observed) this.#walletTrades.next(trade);
    if (this.definition.onWalletTrade !== undefined) this.call('onWalletTrade', { ctx: this.ctx, state: this.#state, trade });
  }

  fill(fill: FillEvent): void {
    if (!this.running) return;
    if (this.#fills.observed) this.#fills.next(fill);
    this.call('onFill', { ctx: this.ctx, state: this.#state, fill });
  }

  orderEvent(event: OrderEvent): void {
    if (!this.running) return;
    if (this.#events.observed) this.#events.next(event);
    // most strategies have no onOrderEvent: no arguments object for each order event then
    if (this.definition.onOrderEvent !== undefined) this.call('onOrderEvent', { ctx: this.ctx, state: this.#state, event });
  }

  lifecycle(event: LifecycleEvent): void {
    if (!this.running) return;
    if (this.#lifecycle.observed) this.#lifecycle.next(event);
    this.call('onLifecycle', { ctx: this.ctx, state: this.#state, event });
  }

  basket(event: BasketEvent): void {
    if (!this.running) return;
    if (this.#baskets.observed) this.#baskets.next(event);
    if (this.definition.onBasket !== undefined) this.call('onBasket', { ctx: this.ctx, state: this.#state, event });
  }

  timer(now: number): void {
    if (!this.running) return;
    this.call('onTimer', { ctx: this.ctx, state: this.#state, now });
  }

  /**
   * Starts a strategy that stopped or faulted again, as new: fresh state (`init`), fresh streams,
   * then `onStart`. False when it is running (or was never started).
   */
  restart(): boolean {
    if (this.state !== 'STOPPED' && this.state !== 'FAULTED') return false;
    this.#books = new Subject();
    this.#prices = new Subject();
    this.#trades = new Subject();
    this.#walletTrades = new Subject();
    this.#fills = new Subject();
    this.#events = new Subject();
    this.#lifecycle = new Subject();
    this.#baskets = new Subject();
    this.#state = undefined;
    this.state = 'CREATED';
    this.start();
    return this.running;
  }

  /** Calls onStop (its intents are still delivered) and ends the streams. */
  stop(): void {
    if (this.state !== 'RUNNING') return;
    this.call('onStop', { ctx: this.ctx, state: this.#state });
    if (this.state === 'RUNNING') this.state = 'STOPPED';
    this.#end();
  }

  /** Calls one hook with its one argument (the run's `ctx` and `state` and the input). */
  call(hook: HookName, args: object): void {
    if (this.state !== 'RUNNING') return;
    // called below with the definition as `this`, so reading the hook off it unbound is safe
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const fn = this.definition[hook] as ((a: object) => unknown) | undefined;
    if (!fn) return;
    let out: unknown;
    try {
      out = fn.call(this.definition, args);
    } catch (err) {
      this.#fail(hook, err);
      return;
    }
    if (out === undefined || out === null) return;
    this.#deliver(hook, out);
  }

  #deliver(where: string, out: unknown): void {
    const list = Array.isArray(out) ? out : [out];
    for (const intent of list) {
      if (!isIntent(intent)) {
        this.#fail(where, new TypeError(`returned something that is not an intent: ${safeJson(intent)}`));
        return;
      }
      const bad = badRefs(intent) ?? (intent.kind === 'basket' ? basketProblem(intent) : undefined);
      if (bad !== undefined) {
        this.#fail(where, new TypeError(`returned a ${intent.kind} intent whose ${bad}: ${safeJson(intent)}`));
        return;
      }
    }
    if (list.length > 0) this.emit(this.id, list as OrderIntent[]);
  }

  #fail(where: string, err: unknown): void {
    if (this.state === 'FAULTED') return;
    // a stream that errored has ended, and a strategy whose init threw has no state: both stop
    const stops = !this.keepGoing || where === 'stream' || where === 'init';
    const fault = new StrategyFault(this.id, where, err, stops);
    // the first fault stays (a strategy that keeps going may fault again)
    this.fault ??= fault;
    if (stops) {
      this.state = 'FAULTED';
      this.#end();
    }
    this.onFault(this.id, fault);
  }

  #end(): void {
    this.#streamSub?.unsubscribe();
    this.#books.complete();
    this.#prices.complete();
    this.#trades.complete();
    this.#walletTrades.complete();
    this.#fills.complete();
    this.#events.complete();
    this.#lifecycle.complete();
    this.#baskets.complete();
  }
}

const KINDS = new Set(['place', 'cancel', 'cancelAll', 'quote', 'basket']);

function isIntent(value: unknown): value is OrderIntent {
  return typeof value === 'object' && value !== null && KINDS.has((value as { kind?: unknown }).kind as string);
}

/** Longest `ref` or `group` of an intent (they are echoed on every event and stored). */
export const MAX_REF_LENGTH = 200;

/** What is wrong with an intent's `ref` or `group` (each a string of 1 to MAX_REF_LENGTH characters when set), or undefined. */
function badRefs(intent: OrderIntent): string | undefined {
  if (intent.kind !== 'place' && intent.kind !== 'quote' && intent.kind !== 'basket') return undefined;
  for (const key of ['ref', 'group'] as const) {
    const value: unknown = intent[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_REF_LENGTH) return `${key} is not a string of 1 to ${MAX_REF_LENGTH} characters`;
  }
  return undefined;
}

function safeJson(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.slice(0, 80);
  } catch {
    return String(value);
  }
}
