import { ConfigError } from '../core/errors.ts';
import { openDataSet } from '../backtest/data-set.ts';
import type { DataWindow } from '../backtest/data-window.ts';

/**
 * Walk-forward folds: the data's span cut into `folds + 1` windows of equal time; fold k fits
 * (searches) on window k and is scored on window k + 1, the next one, which the search never saw.
 * The folds roll forward through the data: with 3 folds, fit on 1 and test on 2, fit on 2 and test
 * on 3, fit on 3 and test on 4. An out-of-sample score well under the in-sample one is the
 * signature of a fit to the noise of one window.
 *
 * Without walk-forward (`--no-walk-forward`) there is one fold: the search runs on the whole span
 * and nothing is held out.
 */
export interface Fold {
  /** 1-based, as tables show it. */
  readonly number: number;
  readonly inSample: Required<DataWindow> & { readonly from: number; readonly to: number };
  /** Absent without walk-forward. */
  readonly outOfSample?: { readonly from: number; readonly to: number };
}

/** The first and last event time of the data (`tsInit`, epoch ms), within `window` when given: `to` is one past the last event. */
export interface Span {
  readonly from: number;
  readonly to: number;
}

/** Reads the data once to find its span (the events' `tsInit`), cut to `window`. */
export async function dataSpan(paths: readonly string[], window: Partial<DataWindow> = {}): Promise<Span> {
  const data = await openDataSet(paths);
  let first = Infinity;
  let last = -Infinity;
  const lo = window.from ?? -Infinity;
  const hi = window.to ?? Infinity;
  for await (const batch of data.batches()) {
    for (const e of batch) {
      if (e.tsInit < lo || e.tsInit >= hi) continue;
      if (e.tsInit < first) first = e.tsInit;
      if (e.tsInit > last) last = e.tsInit;
    }
  }
  if (first === Infinity) throw new ConfigError(`--data: no events${window.from !== undefined || window.to !== undefined ? ' in the window' : ''} to optimise on`);
  return { from: first, to: last + 1 };
}

/** The folds of `span` (see Fold); `folds` 0 means no walk-forward. */
export function walkForwardFolds(span: Span, folds: number): Fold[] {
  if (!Number.isInteger(folds) || folds < 0) throw new ConfigError(`--folds: must be a whole number >= 1, was ${folds}`);
  if (folds === 0) return [{ number: 1, inSample: { from: span.from, to: span.to } }];
  const length = span.to - span.from;
  if (length < (folds + 1) * 1000) throw new ConfigError(`--folds ${folds}: the data spans ${length} ms, too short for ${folds + 1} windows of a second or more`);
  const edge = (k: number): number => (k === folds + 1 ? span.to : span.from + Math.floor((length * k) / (folds + 1)));
  return Array.from({ length: folds }, (_, k) => ({
    number: k + 1,
    inSample: { from: edge(k), to: edge(k + 1) },
    outOfSample: { from: edge(k + 1), to: edge(k + 2) },
  }));
}
