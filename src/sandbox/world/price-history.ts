import type { Micros } from '../../core/fixed.ts';
import { MICROS_PER_UNIT } from '../../core/fixed.ts';
import type { SandboxToken } from './model.ts';

/**
 * Synthetic price history of a token: a deterministic function of (seed, market, time), so any
 * window asked for comes out the same on every call. Value noise on a daily and an hourly grid
 * around the market's initial mid, on the tick grid, within [tick, 1 - tick]; after a closed
 * market's resolution the price sits there (1 or 0; a market closed but not resolved yet keeps its
 * noise). The NO token mirrors the YES token.
 */
const HOUR_S = 3600;
const DAY_S = 86_400;

export function priceAt(seed: number, token: SandboxToken, unixSeconds: number): Micros {
  const market = token.market;
  let yes: Micros;
  if (market.closed && market.winnerIndex !== undefined && unixSeconds * 1000 >= market.endDate) {
    yes = market.winnerIndex === 0 ? MICROS_PER_UNIT : 0;
  } else {
    const base = market.initialMid;
    const room = Math.min(base, MICROS_PER_UNIT - base);
    const amplitude = Math.min(150_000, room * 0.6);
    const daily = noise(seed, market.index, 1, unixSeconds / DAY_S);
    const hourly = noise(seed, market.index, 2, unixSeconds / HOUR_S);
    const raw = base + amplitude * (0.7 * daily + 0.3 * hourly);
    const tick = market.tickSize;
    yes = Math.min(MICROS_PER_UNIT - tick, Math.max(tick, Math.round(raw / tick) * tick));
  }
  return token.outcomeIndex === 0 ? yes : MICROS_PER_UNIT - yes;
}

/** Linear interpolation between pseudo-random nodes in [-1, 1] at integer positions. */
function noise(seed: number, market: number, layer: number, x: number): number {
  const i = Math.floor(x);
  const f = x - i;
  const a = node(seed, market, layer, i);
  const b = node(seed, market, layer, i + 1);
  return a + (b - a) * f;
}

function node(seed: number, market: number, layer: number, i: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(market + 1, 0xc2b2ae35) ^ Math.imul(layer, 0x27d4eb2f);
  h = Math.imul(h ^ (i | 0), 0x165667b1) ^ Math.imul((i / 0x1_0000_0000) | 0, 0xd3a2646c);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  h = Math.imul(h, 0x297a2d39);
  h ^= h >>> 15;
  return ((h >>> 0) / 0xffff_ffff) * 2 - 1;
}
