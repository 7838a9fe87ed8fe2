import type { Clock } from '../core/clock.ts';
import type { PaperRunConfig } from '../config/run-config.ts';
import type { TrackedToken } from '../data/market-cache.ts';
import { constantLatency } from '../sim/edge/latency-model.ts';
import { queueModel } from '../sim/edge/queue-model.ts';
import { simulatedVenueSettings, SimulatedExecutionClient } from '../sim/edge/simulated-execution.ts';
import type { ExecutionEdge } from './execution-edge.ts';
import { backtestTokens } from './recorded-markets.ts';

/**
 * Paper: live market data, simulated fills. The execution edge is the backtest's (our orders
 * against the venue's live books, with its queue, latency and fee models and the config's
 * `backtest` settings), fed every live market event before the engine sees it. No order ever
 * reaches the venue.
 */
export function paperEdge(config: PaperRunConfig, clock: Clock, tokens: readonly TrackedToken[]): ExecutionEdge {
  const bt = config.backtest;
  const execution = new SimulatedExecutionClient({
    kind: 'paper',
    clock,
    tokens: backtestTokens(tokens, bt),
    latency: constantLatency(bt.entryLatencyMs, bt.responseLatencyMs),
    queue: queueModel(bt.queueModel),
    balance: config.paper.balance,
    ...simulatedVenueSettings(bt),
  });
  return {
    execution,
    observe: (event) => execution.onMarketEvent(event),
    addTokens: (added) => execution.addTokens(backtestTokens(added, bt)),
    restoreAccount: (cash, positions) => execution.restoreAccount(cash, positions),
  };
}
