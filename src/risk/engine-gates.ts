import type { OrderRequest } from '../core/intents.ts';
import { deny } from './deny.ts';
import type { Denial, RiskState } from './types.ts';

const RECONCILING_MESSAGE = 'market has orders of unknown outcome under reconciliation';

/**
 * The engine's own gates, in this order: a manual halt (the message carries `haltReason`), a
 * heartbeat `late` or `lost` (`idle`, before any chain started, and `healthy` pass), and the
 * order's market under reconciliation. They run before every configured check and no config
 * removes them: the checks of `risk.checks` are the optional ones. Pure.
 */
export function engineGates(req: OrderRequest, state: RiskState): Denial | undefined {
  if (state.manualHalt) return deny('TRADING_HALTED', 'halt', `manual halt: ${state.haltReason ?? 'no reason given'}`);
  if (state.heartbeat === 'late' || state.heartbeat === 'lost') return deny('TRADING_HALTED', 'heartbeat', `heartbeat ${state.heartbeat}`);
  if (state.reconciling.has(req.conditionId)) return deny('RECONCILING', 'reconciling', RECONCILING_MESSAGE);
  return undefined;
}
