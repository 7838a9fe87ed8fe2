import { StrategyError } from '../core/errors.ts';
import type { FaultReport } from '../engine/engine-summary.ts';

/** How a user keeps a backtest going past a strategy's faults. */
export const KEEP_GOING_HINT = 'to skip the event and go on, counting faults: --keep-going, or backtest.keepGoing: true';

/**
 * A backtest stopped by a strategy that threw. The message is the fault, when (virtual time) and
 * after how many events, then the frames of the strategy's own code (its file:line), then how to
 * keep going: several lines, because the stack is the point.
 */
export class BacktestFaultError extends StrategyError {
  constructor(
    readonly fault: FaultReport,
    /** Events replayed when the fault stopped the replay. */
    readonly events: number,
  ) {
    const frames = fault.stack.split('\n').slice(1);
    super([`backtest stopped: ${fault.message} (at ${fault.at}, virtual time, after ${events} events)`, ...frames, KEEP_GOING_HINT].join('\n'));
  }
}
