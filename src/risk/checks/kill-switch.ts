import { deny, fmt } from '../deny.ts';
import type { RiskCheck } from '../types.ts';

/**
 * killSwitch -> TRADING_HALTED when trading must stop, checked in this order:
 * - `manualHalt` (the message carries `haltReason`);
 * - heartbeat `late` or `lost` (`idle`, before any chain started, and `healthy` pass);
 * - `dailyPnl <= -dailyLossLimit` (a loss exactly at the limit halts);
 * - `consecutiveRejects >= maxConsecutiveRejects`.
 * Needs no market. Runs first by default so nothing goes out while halted.
 */
export const killSwitch: RiskCheck = (_req, state, limits) => {
  if (state.manualHalt) {
    return deny('TRADING_HALTED', 'killSwitch', `manual halt: ${state.haltReason ?? 'no reason given'}`);
  }
  if (state.heartbeat === 'late' || state.heartbeat === 'lost') {
    return deny('TRADING_HALTED', 'killSwitch', `heartbeat ${state.heartbeat}`);
  }
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
