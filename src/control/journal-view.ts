import type { HealthState } from '../engine/health.ts';
import { runStartedOf } from '../store/run-started.ts';
import type { JournalRow } from '../store/store-types.ts';
import { healthView, UNKNOWN_HEALTH, type ControlState, type HealthView } from './control-state.ts';
import { redactParams } from './redact.ts';

/** The journal types a store's dashboard reads the run's story from. */
export const STORY_TYPES = ['Run', 'Command', 'StrategyFaulted', 'HealthChanged'] as const;

/** What a store's journal tells of the run beyond its orders and fills. */
export interface JournalStory {
  /** The newest journaled health (unknown: none journaled). */
  readonly health: HealthView;
  readonly halts: ControlState['halts'];
  /** Each strategy of the newest start: its state and params as the journal leaves them. */
  readonly strategies: ReadonlyMap<string, { readonly state: string; readonly params: unknown }>;
  /** The run stopped (its newest health says so): it is finished, or was killed after a clean stop. */
  readonly stopped: boolean;
}

/**
 * The run's health, halts and strategies from its journal rows (oldest first, any types; those
 * of STORY_TYPES are read): the newest `HealthChanged` is the health, and its halt reasons are
 * the halts on; each strategy starts RUNNING with the params of the newest run-started note,
 * then its commands (stop, start, params updates that were applied) and faults change it; a
 * run whose health reads `stopped` has every strategy STOPPED but the faulted.
 */
export function journalStory(rows: Iterable<JournalRow>): JournalStory {
  let health: HealthState | undefined;
  const strategies = new Map<string, { state: string; params: unknown }>();
  for (const row of rows) {
    const event = row.event;
    switch (event.type) {
      case 'run': {
        const started = runStartedOf(event);
        if (started === undefined) break;
        strategies.clear();
        for (const s of started.strategies) strategies.set(s.id, { state: 'RUNNING', params: s.params });
        break;
      }
      case 'HealthChanged':
        health = event.state;
        break;
      case 'fault': {
        const s = strategies.get(event.strategyId);
        if (s) s.state = 'FAULTED';
        break;
      }
      case 'command': {
        if (!event.result.ok) break;
        const c = event.command;
        const id = 'strategyId' in c ? c.strategyId : undefined;
        const s = id === undefined ? undefined : strategies.get(id);
        if (s === undefined) break;
        if (c.type === 'stopStrategy') s.state = 'STOPPED';
        else if (c.type === 'startStrategy') s.state = 'RUNNING';
        else if (c.type === 'updateParams' && typeof s.params === 'object' && s.params !== null) s.params = { ...s.params, ...(redactParams(c.params) as object) };
        break;
      }
    }
  }
  const stopped = health?.reasons.some((r) => r.kind === 'stopped') ?? false;
  if (stopped) for (const s of strategies.values()) if (s.state === 'RUNNING') s.state = 'STOPPED';
  const halts: ControlState['halts'][number][] = [];
  for (const r of health?.reasons ?? []) {
    if (r.kind === 'halt') halts.push({ name: r.name, reason: r.reason, since: r.since, latched: r.latched });
    else if (r.kind === 'killSwitch') halts.push({ name: 'killSwitch', reason: r.reason, since: r.since, latched: true });
  }
  return { health: health === undefined ? UNKNOWN_HEALTH : healthView(health), halts, strategies, stopped };
}
