import type { Micros } from '../core/fixed.ts';
import type { TokenId } from '../core/types.ts';
import { reservedByOpenBuys } from '../portfolio/free-balance.ts';
import type { StrategyFigures, StrategyLedger } from '../portfolio/strategy-ledger.ts';
import type { EngineParts } from './engine-parts.ts';
import { ENGINE_METRICS, STATUS_429 } from './engine-metrics.ts';
import { buildSummary, type EngineSummary, type StopReport } from './engine-summary.ts';
import type { EngineStrategy } from './ports.ts';

/** The engine's parts the run summary reads (engine-parts.ts builds them), with its ledger and strategies. */
export interface SummarySources extends Pick<EngineParts, 'desk' | 'snapshot' | 'portfolio' | 'tally' | 'fills' | 'account' | 'host' | 'rewards'> {
  readonly ledger: StrategyLedger;
  /** Every hosted strategy (each has a row in `byStrategy`, traded or not). */
  readonly strategies: readonly EngineStrategy[];
}

/**
 * Each strategy's fills, turnover, fees and PnL at `mark`, adding up to the run's
 * (StrategyLedger.figures); every hosted strategy has a row, traded or not.
 */
export function figuresByStrategy(from: SummarySources, mark: (tokenId: TokenId) => Micros | undefined): StrategyFigures[] {
  return from.ledger.figures(from.portfolio, mark, from.strategies.map((s) => s.id));
}

/**
 * The run summary now (engine-summary.ts: its fields), gathered from the engine's parts at the
 * run's marks: the counts and metrics of the desk, the account, each strategy's figures, the
 * fills by settlement, the open orders, the strategies' states, the verified stop's outcome (once
 * stopped), the alerts and the reward estimate.
 */
export function gatherSummary(from: SummarySources, stop: StopReport | undefined, alerts: readonly string[]): EngineSummary {
  const mark = (tokenId: TokenId) => from.snapshot.mark(tokenId);
  const totals = from.portfolio.totals(mark);
  const desk = from.desk;
  const metrics = desk.metrics;
  return buildSummary({
    counts: desk.counters,
    deniedByCode: metrics.total(ENGINE_METRICS.denied, 'code'),
    firstFault: from.tally.firstFault,
    totals,
    byStrategy: figuresByStrategy(from, mark),
    fillsBySettlement: from.fills.settlement,
    reserved: reservedByOpenBuys(desk.tracker.open()),
    account: { source: from.account.source, outside: from.account.outside() },
    http429: metrics.value(ENGINE_METRICS.httpResponses, STATUS_429),
    heartbeats: {
      sent: metrics.value(ENGINE_METRICS.heartbeatsSent),
      acknowledged: metrics.value(ENGINE_METRICS.heartbeatsAcknowledged),
      missed: metrics.value(ENGINE_METRICS.heartbeatsMissed),
    },
    openOrders: desk.tracker.open().length,
    strategies: from.host.states(),
    stop,
    alerts,
    rewards: from.rewards.summary(),
  });
}
