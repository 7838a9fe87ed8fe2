import type { RunConfig } from '../config/run-config.ts';
import { LiveSource } from '../control/live-source.ts';
import type { LogLines } from '../control/log-lines.ts';
import type { RunSession } from './run-session.ts';

/**
 * The control server's view of a running session (`clobot run --control`): the engine's state,
 * commands and event bus, the run's log lines, and its id, name and store.
 */
export function liveControlSource(session: RunSession, config: RunConfig, logs: LogLines, storePath: string | undefined): LiveSource {
  return new LiveSource({
    engine: session.engine,
    mode: config.mode === 'paper' ? 'paper' : 'live',
    runId: session.runId,
    name: config.name,
    storePath: storePath ?? null,
    logs,
  });
}
