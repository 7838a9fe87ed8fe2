import { deny, fmt } from '../deny.ts';
import type { RiskCheck } from '../types.ts';

/**
 * killSwitch -> TRADING_HALTED when a configured limit says trading must stop, in this order:
 * - `dailyPnl <= -dailyLossLimit` (a loss exactly at the limit halts);
 * - `consecutiveRejects >= maxConsecutiveRejects`.
 * Needs no market. Runs first by default. A manual halt and an unhealthy heartbeat are not
 * this check's: they are engine gates (engine-gates.ts) that no config removes.
 */
export const killSwitch: RiskCheck = (_req, state, limits) => {
  const lossLimit = limits.dailyLossLimit;
  if (lossLimit !== undefined && !(state.dailyPnl > -lossLimit)) {
    return deny('TRADING_HALTED', 'killSwitch', `daily loss: pnl ${fmt(state.dailyPnl)} at or below -${fmt(lossLimit)}`);
  }
  const maxRejects = limits.maxConsecutiveRejects;
  if (maxRejects !== undefined && state.consecutiveRejects >= maxRejects) {
    return deny(
      'TRADING_HALTED',
      'killSwitch',
      `consecutive rejects ${state.consecutiveRejects} reached max ${maxRejects}`,
    );
  }
  return undefined;
};
