import { formatMicros } from '../core/fixed.ts';
import { bestAsk, bestBid } from '../core/book.ts';
import type { RunSession } from '../app/run-session.ts';
import { ENGINE_METRICS } from '../engine/engine-metrics.ts';
import type { EngineSummary } from '../engine/engine-summary.ts';
import type { EngineEvent } from '../engine/ports.ts';
import { describeHealth } from '../engine/health.ts';
import { renderTable } from './table.ts';

/** Lines of the view's "recent" list (halts, commands, faults, heartbeat changes). */
const RECENT_LINES = 5;

/**
 * The terminal status view of `clobot run`: redraws every `everyMs` (real time; it only reads
 * the engine): markets, open orders, fills, PnL and heartbeat, tick-to-trade, the halts on, the
 * strategies that faulted (the first fault with the file:line of the strategy's code), the
 * busiest tokens, and the run's recent halts, commands, faults and heartbeat changes, which it
 * hears as a listener of the engine's event bus (redrawing at once on a command or a fault).
 */
export class StatusView {
  #timer: NodeJS.Timeout | undefined;
  #lines = 0;
  readonly #startedAt = Date.now();
  readonly #recent: string[] = [];
  #unsubscribe: (() => void) | undefined;

  constructor(
    private readonly session: RunSession,
    private readonly everyMs = 2_000,
    private readonly out: NodeJS.WriteStream = process.stdout,
  ) {}

  start(): void {
    this.#unsubscribe = this.session.engine.bus.subscribe((event) => this.hear(event));
    this.draw();
    this.#timer = setInterval(() => this.draw(), this.everyMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#unsubscribe?.();
    this.draw();
  }

  /** A bus event: the ones a person watching wants to see at once go to the recent list. */
  hear(event: EngineEvent): void {
    const line = recentLine(event);
    if (line === undefined) return;
    this.#recent.push(`${new Date().toISOString().slice(11, 19)} ${line}`);
    if (this.#recent.length > RECENT_LINES) this.#recent.shift();
    // a command (a halt, a resume: every halt is one) or a fault shows at once, not at the next redraw
    if (this.#timer !== undefined && (event.type === 'command' || event.type === 'fault')) this.draw();
  }

  draw(): void {
    const text = this.render();
    if (this.#lines > 0) this.out.write(`\x1b[${this.#lines}A\x1b[0J`);
    this.out.write(text + '\n');
    this.#lines = text.split('\n').length;
  }

  render(): string {
    const { engine, sandbox, tokens } = this.session;
    const s = engine.summary();
    const elapsed = Math.round((Date.now() - this.#startedAt) / 1000);
    const head = [
      `clobot run  ${elapsed}s  ${sandbox ? `sandbox ${sandbox.url}` : ''}${engine.halted ? `  HALTED (${engine.halted})` : ''}`,
      `markets ${this.session.markets.length}  tokens ${tokens.length}  open orders ${s.openOrders}  submitted ${s.ordersSubmitted}  accepted ${s.ordersAccepted}  rejected ${s.ordersRejected}  denied ${s.ordersDeniedTotal}`,
      `cash ${s.account.cash}  reserved ${s.account.reserved}  position value ${s.account.positionValue}  equity ${s.account.equity}${s.account.source === 'venue' ? ' (cash from the venue)' : ''}`,
      `fills ${s.fills}  realized ${s.account.realized}  unrealized ${s.account.unrealized}  fees ${s.account.fees}  heartbeat ${engine.heartbeat?.health ?? 'n/a'} (${s.heartbeats.acknowledged}/${s.heartbeats.sent})  429s ${s.http429}`,
    ];
    const sets = completeSetsLine(s.account);
    if (sets !== undefined) head.push(sets);
    if (s.rewards !== undefined) head.push(rewardsLine(s.rewards));
    const ttt = engine.metrics.histogram(ENGINE_METRICS.tickToTrade);
    if (ttt !== undefined) head.push(`tick-to-trade p50 ${ms(ttt.quantiles.p50)}  p99 ${ms(ttt.quantiles.p99)}  batches ${ttt.count}`);
    const halts = engine.halts;
    if (halts.length > 0) head.push(`halts: ${halts.map((h) => `${h.name}${h.latched ? ' (latched)' : ''}: ${h.reason}`).join('; ')}`);
    // one line per strategy once it traded (its own fills, PnL at the run's marks)
    for (const [id, a] of Object.entries(s.byStrategy)) {
      if (a.fills > 0) head.push(`  ${id}: fills ${a.fills}  pnl ${a.pnl}  realized ${a.realized}  fees ${a.fees}  turnover ${a.turnover}`);
    }
    const fault = faultLine(s);
    if (fault !== undefined) head.push(fault);
    const positions = engine.portfolio
      .positions()
      .filter((p) => p.size !== 0 || p.realizedPnl !== 0)
      .slice(0, 8)
      .map((p) => {
        const state = engine.cache.get(p.tokenId);
        const book = state?.book;
        const bid = bestBid(book);
        const ask = bestAsk(book);
        return [
          (state?.token.question ?? p.tokenId).slice(0, 40),
          state?.token.outcome ?? '',
          formatMicros(p.size),
          formatMicros(p.avgPrice),
          bid === undefined ? '-' : formatMicros(bid),
          ask === undefined ? '-' : formatMicros(ask),
          formatMicros(p.realizedPnl),
        ];
      });
    const table = positions.length > 0 ? renderTable(['market', 'outcome', 'position', 'avg', 'bid', 'ask', 'realized'], positions, [false, false, true, true, true, true, true]) : '(no positions yet)';
    const outside = s.account.outside.map((p) => `outside the bot: ${p.tokenId.slice(0, 20)}… ${p.size} shares${p.value === undefined ? '' : ` (${p.value})`}, not in its figures, never sold by it`);
    const recent = this.#recent.length > 0 ? ['', 'recent:', ...this.#recent.map((l) => `  ${l}`)] : [];
    return [...head, ...outside, '', table, ...recent].join('\n');
  }
}

function ms(seconds: number | undefined): string {
  return seconds === undefined ? '-' : `${(seconds * 1000).toFixed(2)} ms`;
}

/** One line for the recent list, for the events a watcher wants (undefined for the rest). */
function recentLine(event: EngineEvent): string | undefined {
  switch (event.type) {
    case 'command':
      return `${event.command.type}${event.result.ok ? '' : ' refused'}: ${event.result.message}`;
    case 'fault':
      return `strategy ${event.strategyId} faulted: ${event.message}`;
    case 'heartbeat':
      return `heartbeat ${event.health}`;
    case 'HealthChanged':
      return `health ${describeHealth(event.state)}`;
    case 'lifecycle':
      if (event.event.type === 'Halted') return `HALTED (${event.event.name}): ${event.event.reason}`;
      if (event.event.type === 'Resumed') return `resumed (${event.event.name} lifted)`;
      return undefined;
    default:
      return undefined;
  }
}

/** One line when strategies faulted: which, how many faults, the first one and where in the strategy's code. */
export function faultLine(s: EngineSummary): string | undefined {
  const first = s.firstFault;
  if (first === undefined) return undefined;
  const faulted = Object.entries(s.strategies)
    .filter(([, state]) => state === 'FAULTED')
    .map(([id]) => id);
  const frame = first.stack.split('\n')[1]?.trim();
  return `FAULTED ${faulted.join(', ') || '-'}  faults ${s.faults}  first: ${first.message}${frame ? ` ${frame}` : ''}`;
}

/** Our estimated liquidity rewards, apart from trading PnL (docs/rewards.md). */
export function rewardsLine(r: { readonly total: string; readonly samples: number; readonly sampleMs: number; readonly byStrategy: Readonly<Record<string, string>> } | null | undefined): string {
  if (r === null || r === undefined) return 'rewards: none (no market of the run pays liquidity rewards, or no sample yet)';
  const by = Object.entries(r.byStrategy);
  return `rewards (estimated, apart from pnl) ${r.total} USDC over ${r.samples} samples of ${r.sampleMs / 1000} s${by.length > 1 ? `  (${by.map(([id, v]) => `${id} ${v}`).join(', ')})` : ''}`;
}

/**
 * The complete sets apart from mark-to-mid, one line (`clobot status`, the run's status view);
 * undefined when none is held.
 */
export function completeSetsLine(a: { readonly completeSets: string; readonly setValue: string; readonly setMarkValue: string }): string | undefined {
  if (Number(a.completeSets) === 0) return undefined;
  return `complete sets ${a.completeSets} valued at payout ${a.setValue} (at mid ${a.setMarkValue}), inside position value`;
}
