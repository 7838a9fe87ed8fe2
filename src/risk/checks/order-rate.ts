import { deny } from '../deny.ts';
import type { RiskCheck } from '../types.ts';

/** The window `maxOrdersPerSecond` counts over. */
export const ORDER_RATE_WINDOW_MS = 1000;

/**
 * orderRate -> ORDER_RATE_LIMIT when the orders sent in the last 1000 ms (times `t` in
 * `recentOrderTimes` with `t > now - 1000`) already number `maxOrdersPerSecond` or more, so this
 * one would exceed it. `recentOrderTimes` is ascending; the scan stops at the first older time.
 * No limit -> passes. Needs no market.
 */
export const orderRate: RiskCheck = (_req, state, limits) => {
  const max = limits.maxOrdersPerSecond;
  if (max === undefined) return undefined;
  const since = state.now - ORDER_RATE_WINDOW_MS;
  const times = state.recentOrderTimes;
  let count = 0;
  for (let i = times.length - 1; i >= 0; i--) {
    const t = times[i];
    if (t === undefined || !(t > since)) break;
    count++;
  }
  if (count >= max) {
    return deny('ORDER_RATE_LIMIT', 'orderRate', `${count} orders in the last ${ORDER_RATE_WINDOW_MS} ms, max ${max}`);
  }
  return undefined;
};
