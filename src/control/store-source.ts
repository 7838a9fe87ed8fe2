import { formatMicros, type Micros } from '../core/fixed.ts';
import type { FillEvent } from '../core/events.ts';
import { Portfolio } from '../portfolio/portfolio.ts';
import { parseRewardsNote, usdcText } from '../engine/reward-accrual.ts';
import { buildStatusReport, REWARDS_CURSOR } from '../store/store-status.ts';
import { StoreReader } from '../store/store-reader.ts';
import type { JournalRow } from '../store/store-types.ts';
import type { ControlSource } from './control-source.ts';
import { fillRow, type ControlMessage, type ControlState, type FillRow, type LogLine, type PnlPoint, type RewardPoint, type StrategyRow } from './control-state.ts';
import { journalStory, STORY_TYPES } from './journal-view.ts';

/** How often the store is looked at for new journal rows, ms (wall time). */
export const STORE_POLL_MS = 1_000;
const FILLS_SHOWN = 100;
/** PnL points drawn at most (every fill up to this many, then evenly thinned). */
const PNL_POINTS = 2_000;

/**
 * A store file as the control server sees it, read-only (`clobot dashboard <store>`): its state
 * read through StoreReader (without its lock: a run may be writing it), the PnL over time replayed
 * from its fills at each fill's price, the health, halts, strategies' states and params from its
 * journal (journal-view.ts), the rewards estimate as of its latest sample, and a fresh state
 * pushed to subscribers whenever its journal grows. The rate budget is not kept in a store. No
 * actions: nothing is ever written.
 */
export class StoreSource implements ControlSource {
  readonly #reader: StoreReader;
  #listeners: readonly ((message: ControlMessage) => void)[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;
  #journalSeen = -1;

  constructor(path: string) {
    this.#reader = StoreReader.open(path);
  }

  state(): ControlState {
    const snap = this.#reader.snapshot(50);
    const report = buildStatusReport(snap);
    const fills: FillRow[] = [];
    for (const row of this.#reader.journalOfType('OrderFilled')) {
      if (row.event.type !== 'fill') continue;
      fills.push(fillRow(row.strategyId ?? '', row.event.fill));
    }
    const denials: Record<string, number> = {};
    for (const row of this.#reader.journalOfType('OrderDenied')) {
      if (row.event.type === 'order' && row.event.event.type === 'OrderDenied') denials[row.event.event.code] = (denials[row.event.event.code] ?? 0) + 1;
    }
    const logs: LogLine[] = report.events.map((e) => ({ at: Date.parse(e.at), level: 'info', msg: e.text, fields: { type: e.type, strategyId: e.strategyId } }));
    const story = journalStory(this.#storyRows());
    const figures = new Map(report.strategies.map((s) => [s.strategyId, s]));
    const ids = [...story.strategies.keys(), ...report.strategies.map((s) => s.strategyId).filter((id) => !story.strategies.has(id))];
    const strategies: StrategyRow[] = ids.map((id) => {
      const told = story.strategies.get(id);
      const f = figures.get(id);
      return { id, state: told?.state ?? 'unknown', params: told?.params ?? null, updatable: [], fills: f?.fills ?? 0, pnl: f?.pnl ?? '0', fees: f?.fees ?? '0' };
    });
    const rewards = parseRewardsNote(snap.cursors[REWARDS_CURSOR]);
    const rewardPoints: RewardPoint[] = rewards === undefined ? [] : [{ at: rewards.at, total: usdcText(rewards.markets.reduce((t, m) => t + m.reward, 0)) }];
    this.#journalSeen = snap.counts.journal;
    return {
      source: 'store',
      readOnly: true,
      run: { id: report.run.id, name: report.run.name, store: snap.file },
      at: Date.now(),
      health: story.health,
      halts: story.halts,
      account: report.account,
      positions: report.strategies.flatMap((s) => s.positions.filter((p) => Number(p.size) !== 0).map((p) => ({ strategyId: s.strategyId, ...p }))),
      openOrders: report.openOrders.map(({ updatedAt: _updatedAt, ...o }) => o),
      fills: fills.slice(-FILLS_SHOWN).reverse(),
      pnl: pnlSeries(snap.fills, snap.balances[0]?.balance ?? 0),
      rewards: rewardPoints,
      rateBudget: null,
      denials,
      strategies,
      logs,
      counts: { ordersSubmitted: snap.counts.orders, ordersAccepted: 0, ordersRejected: 0, ordersCanceled: 0, fills: snap.counts.fills },
    };
  }

  /** The journal rows the run's story is read from, in journal order. */
  #storyRows(): JournalRow[] {
    const rows: JournalRow[] = [];
    for (const type of STORY_TYPES) for (const row of this.#reader.journalOfType(type)) rows.push(row);
    return rows.sort((a, b) => a.seq - b.seq);
  }

  subscribe(listener: (message: ControlMessage) => void): () => void {
    this.#listeners = [...this.#listeners, listener];
    this.#timer ??= setInterval(() => this.#poll(), STORE_POLL_MS);
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
      if (this.#listeners.length === 0 && this.#timer !== undefined) {
        clearInterval(this.#timer);
        this.#timer = undefined;
      }
    };
  }

  close(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#listeners = [];
    this.#reader.close();
  }

  #poll(): void {
    try {
      const journal = this.#reader.snapshot(0).counts.journal;
      if (journal === this.#journalSeen) return;
      const state = this.state();
      for (const listener of this.#listeners) listener({ type: 'state', state });
    } catch {
      // a store being written may be read again next time; the page keeps the last state
    }
  }
}

/**
 * PnL (realized + unrealized - fees) and equity after each fill, each token marked at its newest
 * fill's price, from the store's first balance (a live run's later venue readings are not replayed).
 */
function pnlSeries(fills: readonly FillEvent[], startingBalance: Micros): PnlPoint[] {
  const portfolio = new Portfolio(startingBalance);
  const marks = new Map<string, Micros>();
  const mark = (tokenId: string) => marks.get(tokenId);
  const every = Math.max(1, Math.ceil(fills.length / PNL_POINTS));
  const out: PnlPoint[] = [];
  fills.forEach((f, i) => {
    portfolio.applyFill(f);
    marks.set(f.tokenId, f.price);
    if (i % every !== 0 && i !== fills.length - 1) return;
    const totals = portfolio.totals(mark);
    out.push({ at: f.tsInit, pnl: formatMicros(totals.realizedPnl + totals.unrealizedPnl - totals.fees), equity: formatMicros(totals.cash + totals.positionValue) });
  });
  return out;
}
