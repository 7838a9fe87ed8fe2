import { interval } from 'rxjs';
import { formatMicros, parseMicros } from '../core/fixed.ts';
import type { CommandResult, EngineCommand } from '../engine/commands.ts';
import { usdcText } from '../engine/reward-accrual.ts';
import type { TradingEngine } from '../engine/trading-engine.ts';
import type { ControlActions, ControlSource } from './control-source.ts';
import { fillRow, healthView, type ControlMessage, type ControlState, type FillRow, type HealthPort, type PnlPoint, type PositionRow, type RateBudgetPort, type RewardPoint, type StrategyRow } from './control-state.ts';
import type { LogLines } from './log-lines.ts';
import { redactParams } from './redact.ts';

/** How often the PnL is sampled and the state pushed to subscribers, ms (the run's clock). */
export const STATE_PUSH_MS = 1_000;
/** Fills kept for `fills` (the newest). */
const FILLS_KEPT = 100;
/** PnL points kept, and rewards points (an hour at one a second). */
const PNL_KEPT = 3_600;

export interface LiveRun {
  readonly engine: TradingEngine;
  readonly mode: 'live' | 'paper';
  readonly runId: string;
  readonly name: string | null;
  readonly storePath: string | null;
  readonly logs: LogLines;
  /** Where health comes from; default the engine's model (`engine.health()` and `HealthChanged` on its bus). */
  readonly health?: HealthPort;
  /** The venue's rate budget in use (absent: not shown). */
  readonly rateBudget?: RateBudgetPort;
}

/** The engine's health model as the control server reads it: each reason with its one line. */
export function engineHealth(engine: TradingEngine): HealthPort {
  return {
    current: () => healthView(engine.health()),
    changes: (listener) =>
      engine.bus.subscribe((event) => {
        if (event.type === 'HealthChanged') listener(healthView(event.state));
      }),
  };
}

/**
 * A running engine as the control server sees it: its state read on demand (the engine's summary,
 * its order book, its strategies, the venue's rate budget), the newest fills kept from its event
 * bus and a series of PnL and rewards estimate sampled each second, the messages (fills, order events, commands, health, log lines, PnL points,
 * and the state each second) pushed to subscribers, and the engine's commands as its actions.
 */
export class LiveSource implements ControlSource {
  readonly #run: LiveRun;
  readonly #health: HealthPort;
  readonly #fills: FillRow[] = [];
  readonly #pnl: PnlPoint[] = [];
  readonly #rewards: RewardPoint[] = [];
  #listeners: readonly ((message: ControlMessage) => void)[] = [];
  readonly #undo: (() => void)[] = [];
  readonly actions: ControlActions;

  constructor(run: LiveRun) {
    this.#run = run;
    const { engine } = run;
    const health = run.health ?? engineHealth(engine);
    this.#health = health;
    this.#undo.push(
      engine.bus.subscribe((event) => {
        switch (event.type) {
          case 'fill': {
            const row = fillRow(event.strategyId, event.fill);
            this.#fills.unshift(row);
            if (this.#fills.length > FILLS_KEPT) this.#fills.pop();
            this.#send({ type: 'fill', fill: row });
            break;
          }
          case 'order':
            this.#send({ type: 'order', strategyId: event.strategyId, event: event.event });
            break;
          case 'command':
            this.#send({ type: 'command', command: event.command, result: event.result, at: event.at });
            break;
        }
      }),
    );
    this.#undo.push(health.changes((h) => this.#send({ type: 'health', health: h })));
    this.#undo.push(run.logs.listen((line) => this.#send({ type: 'log', line })));
    const sampler = interval(STATE_PUSH_MS, engine.clock.scheduler).subscribe(() => this.#sample());
    this.#undo.push(() => sampler.unsubscribe());
    this.#sample();
    this.actions = {
      command: (command: EngineCommand) => engine.command(command),
      flatten: (bandCents, waitMs) => flatten(engine, bandCents, waitMs),
    };
  }

  state(): ControlState {
    const { engine } = this.#run;
    const summary = engine.summary();
    const positions: PositionRow[] = [];
    for (const [strategyId, account] of Object.entries(summary.byStrategy)) {
      for (const p of account.positions) if (Number(p.size) !== 0) positions.push({ strategyId, ...p });
    }
    const strategies: StrategyRow[] = engine.strategies().map((s) => {
      const figures = summary.byStrategy[s.id];
      return { id: s.id, state: s.state, params: redactParams(s.params), updatable: s.updatable, fills: figures?.fills ?? 0, pnl: figures?.pnl ?? '0', fees: figures?.fees ?? '0' };
    });
    return {
      source: this.#run.mode,
      readOnly: false,
      run: { id: this.#run.runId, name: this.#run.name, store: this.#run.storePath },
      at: engine.clock.now(),
      health: this.#health.current(),
      halts: engine.halts.map((h) => ({ name: h.name, reason: h.reason, since: h.since, latched: h.latched })),
      account: summary.account,
      positions,
      openOrders: engine.tracker.open().map((r) => ({
        clientOrderId: r.request.clientOrderId,
        orderId: r.orderId ?? null,
        strategyId: r.request.strategyId,
        tokenId: r.request.tokenId,
        side: r.request.side,
        price: formatMicros(r.request.price),
        size: formatMicros(r.request.size),
        filled: formatMicros(r.filled),
        status: r.status,
      })),
      fills: [...this.#fills],
      pnl: [...this.#pnl],
      rewards: [...this.#rewards],
      rateBudget: this.#run.rateBudget?.() ?? null,
      denials: summary.ordersDenied,
      strategies,
      logs: this.#run.logs.newest(50),
      counts: { ordersSubmitted: summary.ordersSubmitted, ordersAccepted: summary.ordersAccepted, ordersRejected: summary.ordersRejected, ordersCanceled: summary.ordersCanceled, fills: summary.fills },
    };
  }

  subscribe(listener: (message: ControlMessage) => void): () => void {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  close(): void {
    for (const undo of this.#undo.splice(0)) undo();
    this.#listeners = [];
  }

  /** A PnL point and a rewards point, and the state to the subscribers (when there are any). */
  #sample(): void {
    const { engine } = this.#run;
    const account = engine.summary().account;
    const at = engine.clock.now();
    const point: PnlPoint = { at, pnl: pnlOf(account), equity: account.equity };
    const rewards: RewardPoint = { at, total: usdcText(engine.rewards.total()) };
    this.#pnl.push(point);
    this.#rewards.push(rewards);
    if (this.#pnl.length > PNL_KEPT) this.#pnl.shift();
    if (this.#rewards.length > PNL_KEPT) this.#rewards.shift();
    if (this.#listeners.length === 0) return;
    this.#send({ type: 'pnl', point });
    this.#send({ type: 'rewards', point: rewards });
    this.#send({ type: 'state', state: this.state() });
  }

  #send(message: ControlMessage): void {
    for (const listener of this.#listeners) {
      try {
        listener(message);
      } catch {
        // a subscriber's failure (a closed socket) is its own; the engine's turn goes on
      }
    }
  }
}

/** The run's PnL as the summary names it: realized + unrealized - fees, exact. */
function pnlOf(account: { readonly realized: string; readonly unrealized: string; readonly fees: string }): string {
  return formatMicros(parseMicros(account.realized) + parseMicros(account.unrealized) - parseMicros(account.fees));
}

/** The flatten command, then its verified end from the bus (up to `waitMs` of wall time). */
async function flatten(engine: TradingEngine, bandCents: number | undefined, waitMs: number): Promise<{ started: CommandResult; verified?: CommandResult }> {
  let off: () => void = () => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const verified = new Promise<CommandResult | undefined>((resolve) => {
    off = engine.bus.subscribe((event) => {
      if (event.type === 'command' && event.command.type === 'flatten' && event.result.phase === 'verified') resolve(event.result);
    });
    timer = setTimeout(() => resolve(undefined), waitMs);
  });
  try {
    const started = engine.command({ type: 'flatten', bandCents });
    if (!started.ok) return { started };
    const end = await verified;
    return end === undefined ? { started } : { started, verified: end };
  } finally {
    off();
    clearTimeout(timer);
  }
}
