import { ConfigError } from '../core/errors.ts';
import type { MarketEvent } from '../core/events.ts';
import { readTime, TIME_FORMS } from '../config/window-time.ts';

/**
 * A backtest's time window over its data: `from` (inclusive) and `to` (exclusive), epoch ms of
 * the events' `tsInit` (when the recorder received them). Either end may be open.
 *
 * What the window replays: every event of [from, to). The market structure before `from` is
 * kept: markets added, tick sizes changed, markets closed or resolved earlier are applied, in
 * their order, at the window's first event (so a market that joined in the morning is traded in
 * an afternoon window). Books, prices and trades before `from` are skipped: a recorded book is a
 * whole book, so each token's state starts at its first book inside the window. The replay stops
 * at the first event at or after `to` (recordings are in time order; the few events a recorder
 * wrote late are replayed at the time reached, as without a window).
 */
export interface DataWindow {
  readonly from: number | undefined;
  readonly to: number | undefined;
}

/** Events before `from` that change what is traded, not its prices: applied at the window's start. */
const STRUCTURE: ReadonlySet<MarketEvent['type']> = new Set(['marketAdded', 'marketClosed', 'marketResolved', 'tickSize', 'feeRate']);

/** True when the window lets every event through. */
export function isWholeWindow(w: DataWindow | undefined): boolean {
  return w === undefined || (w.from === undefined && w.to === undefined);
}

/** The window as people read it: `[2026-11-28T06:00:00.000Z, 2026-11-28T12:00:00.000Z)`, an open end as `…`. */
export function describeWindow(w: DataWindow): string {
  const at = (t: number | undefined) => (t === undefined ? '…' : new Date(t).toISOString());
  return `[${at(w.from)}, ${at(w.to)})`;
}

/** A window end as a flag writes it (see src/config/window-time.ts); `where` names the flag in the error. */
export function parseWindowTime(value: string, where: string): number {
  const ms = readTime(value);
  if (ms === undefined) throw new ConfigError(`${where}: must be ${TIME_FORMS}, was '${value}'`);
  return ms;
}

/** The batches of `source` inside `window` (see DataWindow). The source is closed at `to`. */
export async function* windowBatches(source: AsyncIterable<readonly MarketEvent[]>, window: DataWindow): AsyncGenerator<readonly MarketEvent[]> {
  const from = window.from ?? -Infinity;
  const to = window.to ?? Infinity;
  let carried: MarketEvent[] | undefined = [];
  for await (const batch of source) {
    let out: MarketEvent[] | undefined;
    let ended = false;
    for (let i = 0; i < batch.length; i++) {
      const e = batch[i]!;
      if (e.tsInit >= to) {
        ended = true;
        break;
      }
      if (e.tsInit < from) {
        if (carried !== undefined && STRUCTURE.has(e.type)) carried.push(e);
        continue;
      }
      if (carried !== undefined) {
        // the structure so far, at the window's first event
        out = carried.map((c) => ({ ...c, tsInit: e.tsInit }));
        carried = undefined;
      }
      (out ??= []).push(e);
    }
    if (out !== undefined && out.length > 0) yield out;
    if (ended) return;
  }
}
