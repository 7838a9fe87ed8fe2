import { ParameterError } from '../core/errors.ts';
import { seededRandom } from '../core/seeded-random.ts';
import type { TradeStatus } from '../venue/domain/statuses.ts';

/**
 * How a matched trade settles on chain, written once for both simulated venues (the sandbox's
 * matching engine and the paper/backtest edge; docs/fill-model.md, "Settlement"):
 *
 *   MATCHED -> MINED -> CONFIRMED                  (most trades)
 *   MATCHED -> RETRYING -> CONFIRMED               (share `retryRate`)
 *   MATCHED -> RETRYING -> FAILED                  (share `failRate`: the trade is void)
 *
 * Every draw is a function of the seed and the trade id alone, so a trade settles the same way
 * whatever else happens in the run and in whatever order trades are matched: a backtest replayed
 * twice, or the sandbox started twice with the same seed and flow, gives the same settlements.
 * With both rates 0 and both delays 0 a trade is CONFIRMED at once (no step): the fill is final
 * when it is reported.
 */
export interface SettlementKnobs {
  /** MATCHED to MINED (or to RETRYING), ms; each trade draws in [0.5, 1.5) of it. */
  readonly minedMs: number;
  /** MINED to CONFIRMED, and RETRYING to its end, ms; drawn the same way. */
  readonly confirmedMs: number;
  /** Share of trades that go RETRYING and then CONFIRMED. */
  readonly retryRate: number;
  /** Share of trades that go RETRYING and then FAILED (void). */
  readonly failRate: number;
}

/** One step of a trade's settlement: the status it takes and when (epoch ms). */
export interface SettlementStep {
  readonly status: TradeStatus;
  readonly atMs: number;
}

/** Final at once: what a venue without settlement delays reports. */
export const INSTANT_SETTLEMENT: SettlementKnobs = Object.freeze({ minedMs: 0, confirmedMs: 0, retryRate: 0, failRate: 0 });

const MAX_SETTLEMENT_MS = 3_600_000;

/** Checks knobs (rates in [0, 1] adding to at most 1, delays whole ms up to an hour); names the bad one. */
export function checkSettlementKnobs(knobs: SettlementKnobs, where: string): SettlementKnobs {
  for (const key of ['minedMs', 'confirmedMs'] as const) {
    const v = knobs[key];
    if (!Number.isInteger(v) || v < 0 || v > MAX_SETTLEMENT_MS) throw new ParameterError(where, key, `must be whole ms in 0..${MAX_SETTLEMENT_MS}, was ${v}`);
  }
  for (const key of ['retryRate', 'failRate'] as const) {
    const v = knobs[key];
    if (!(v >= 0 && v <= 1)) throw new ParameterError(where, key, `must be in [0, 1], was ${v}`);
  }
  if (knobs.retryRate + knobs.failRate > 1) throw new ParameterError(where, 'failRate', `retryRate + failRate must be at most 1, was ${knobs.retryRate + knobs.failRate}`);
  return knobs;
}

/** True when trades settle at once (no step ever scheduled). */
export function isInstant(knobs: SettlementKnobs): boolean {
  return knobs.minedMs === 0 && knobs.confirmedMs === 0 && knobs.retryRate === 0 && knobs.failRate === 0;
}

/**
 * The statuses a trade matched at `matchMs` goes through after MATCHED, in order (empty: it is
 * CONFIRMED at once). Deterministic in (seed, tradeId).
 */
export function settlementPath(knobs: SettlementKnobs, seed: number, tradeId: string, matchMs: number): SettlementStep[] {
  if (isInstant(knobs)) return [];
  const draw = tradeDraws(seed, tradeId);
  const outcome = draw();
  const first = matchMs + Math.floor(knobs.minedMs * (0.5 + draw()));
  const second = first + Math.floor(knobs.confirmedMs * (0.5 + draw()));
  if (outcome < knobs.failRate) return [step('RETRYING', first), step('FAILED', second)];
  if (outcome < knobs.failRate + knobs.retryRate) return [step('RETRYING', first), step('CONFIRMED', second)];
  return [step('MINED', first), step('CONFIRMED', second)];
}

function step(status: TradeStatus, atMs: number): SettlementStep {
  return { status, atMs };
}

/** Uniform draws in [0, 1) from a hash of the seed and the trade id (FNV-1a, then mulberry32). */
function tradeDraws(seed: number, tradeId: string): () => number {
  let h = (0x811c9dc5 ^ (seed >>> 0) ^ Math.floor(seed / 0x1_0000_0000)) >>> 0;
  for (let i = 0; i < tradeId.length; i++) {
    h ^= tradeId.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return seededRandom(h);
}
