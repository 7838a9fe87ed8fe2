import type { EngineLogger } from '../engine/ports.ts';

/**
 * A backtest's logger: every line (the engine's and the strategies' `ctx.log`) carries `at`, the
 * replayed time it was written at (ISO 8601), beside pino's `time`, which is the wall clock of the
 * machine that ran the replay and says nothing of where in the data the line belongs. A field
 * `at` given by the caller wins.
 */
export function replayTimeLog(log: EngineLogger, now: () => number): EngineLogger {
  const at = () => new Date(now()).toISOString();
  return {
    debug: (msg, fields) => log.debug(msg, { at: at(), ...fields }),
    info: (msg, fields) => log.info(msg, { at: at(), ...fields }),
    warn: (msg, fields) => log.warn(msg, { at: at(), ...fields }),
    error: (msg, fields) => log.error(msg, { at: at(), ...fields }),
    child: (bindings) => replayTimeLog(log.child(bindings), now),
  };
}
