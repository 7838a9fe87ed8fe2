import type { RiskConfig } from '../config/run-config.ts';
import type { RecordingHeader } from '../data/recording/format.ts';

/**
 * Data that updates each market less often than risk's `staleBook` check allows a book to age
 * (imported quotes sampled every 2 minutes against the default `risk.staleBookMs` of 10 s) gets
 * almost every order denied as "stale book": the backtest says so in one line before it starts
 * (and in the summary's warnings). The interval is the header's `medianUpdateMs`, which `clobot
 * import` writes; a recording of a venue has none (it hears every change) and is never warned about.
 */
export function staleDataWarning(header: Pick<RecordingHeader, 'source' | 'medianUpdateMs'>, risk: Pick<RiskConfig, 'checks' | 'staleBookMs'>): string | undefined {
  const every = header.medianUpdateMs;
  if (every === undefined || !risk.checks.includes('staleBook') || every <= risk.staleBookMs) return undefined;
  return (
    `the data (${header.source}) updates a market every ${duration(every)} (median), longer than risk.staleBookMs ${duration(risk.staleBookMs)}: ` +
    `the staleBook check will deny most orders; set it above ${every} for this data, e.g. --set risk.staleBookMs=${suggested(every)}`
  );
}

function duration(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  const s = ms / 1_000;
  return s < 600 ? `${Number(s.toFixed(1))} s` : `${Number((s / 60).toFixed(1))} min`;
}

/** Twice the interval, in whole seconds: a book then ages past the limit only where a market missed a sweep. */
function suggested(every: number): number {
  return Math.ceil((2 * every) / 1_000) * 1_000;
}
