import type { RunConfig } from '../config/run-config.ts';
import type { RateBudgetView } from '../control/control-state.ts';
import { LiveSource } from '../control/live-source.ts';
import type { LogLines } from '../control/log-lines.ts';
import type { BudgetSnapshot } from '../venue/rate-budget.ts';
import type { RunSession } from './run-session.ts';

/**
 * The control server's view of a running session (`clobot run --control`): the engine's state,
 * commands and event bus, the venue's rate budget, the run's log lines, and its id, name and store.
 */
export function liveControlSource(session: RunSession, config: RunConfig, logs: LogLines, storePath: string | undefined): LiveSource {
  const budget = session.venue.budget;
  return new LiveSource({
    engine: session.engine,
    mode: config.mode === 'paper' ? 'paper' : 'live',
    runId: session.runId,
    name: config.name,
    storePath: storePath ?? null,
    logs,
    rateBudget: () => rateBudgetView(budget.snapshot()),
  });
}

/** The budget's windows in use (each with its share used) and the routes paused after a 429. */
export function rateBudgetView(snapshot: BudgetSnapshot): RateBudgetView {
  return {
    windows: snapshot.windows.map((w) => ({ name: w.name, share: w.limit > 0 ? (w.used + w.inFlight) / w.limit : 0, used: w.used, inFlight: w.inFlight, limit: w.limit, windowMs: w.windowMs })),
    paused: Object.entries(snapshot.pausedUntil).map(([route, until]) => ({ route, until })),
  };
}
