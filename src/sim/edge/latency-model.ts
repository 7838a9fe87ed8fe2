import { ParameterError } from '../../core/errors.ts';

/**
 * Delays between the engine and the simulated venue, milliseconds of virtual time. An order or a
 * cancel reaches the venue `entryMs` after the engine sent it and is matched against the book as
 * it was then; the venue's answer and every fill reach the engine `responseMs` later.
 */
export interface LatencyModel {
  /** Engine to venue: orders, cancels, lookups. */
  entryMs(now: number): number;
  /** Venue to engine: results, cancel outcomes, fills. */
  responseMs(now: number): number;
}

/** The same delays all the time. */
export function constantLatency(entryMs: number, responseMs: number = entryMs): LatencyModel {
  for (const [name, v] of [['entryMs', entryMs], ['responseMs', responseMs]] as const) {
    if (!Number.isFinite(v) || v < 0) throw new ParameterError('constantLatency', name, `must be a finite number >= 0, was ${v}`);
  }
  return Object.freeze({ entryMs: () => entryMs, responseMs: () => responseMs });
}
