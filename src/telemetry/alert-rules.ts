import { describeHealth, describeReason, worsened, type HealthReason } from '../engine/health.ts';
import type { EngineEvent } from '../engine/ports.ts';

/** What an alert is about; each kind is rate-limited on its own. */
export const ALERT_KINDS = ['health', 'halt', 'killSwitch', 'heartbeatLost', 'feedSilent', 'strategyFaulted', 'submitUnknown', 'dailyLoss', 'runEnded'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export type AlertSeverity = 'info' | 'warning' | 'critical';

/** One alert, before it is formatted for a receiver. Plain text only: no secret ever goes in. */
export interface Alert {
  readonly kind: AlertKind;
  readonly severity: AlertSeverity;
  /** One line. */
  readonly title: string;
  /** More lines (the reasons, a summary). */
  readonly detail: readonly string[];
  /** When it happened (epoch ms, the run's clock). */
  readonly at: number;
  /** Alerts of this kind held back by the rate limit since the last one sent. */
  readonly suppressed?: number;
}

/**
 * The alert an engine event makes, if any (issue 23 point 5): health or permission worsening
 * (with feed silence and orders of unknown outcome past their limit as their own kinds), a halt,
 * the kill switch, the heartbeat lost, a strategy fault. Pure: the alerter calls it on the bus.
 */
export function alertOf(event: EngineEvent, run: string): Alert | undefined {
  switch (event.type) {
    case 'HealthChanged': {
      const { previous, state } = event;
      const added = newReasons(previous.reasons, state.reasons);
      const silent = added.find((r) => r.kind === 'feedSilent');
      if (silent) return { kind: 'feedSilent', severity: 'warning', title: `${run}: ${describeReason(silent)}`, detail: [describeHealth(state)], at: event.at };
      const unknown = added.find((r) => r.kind === 'submitUnknown');
      if (unknown) return { kind: 'submitUnknown', severity: 'critical', title: `${run}: ${describeReason(unknown)}`, detail: [describeHealth(state)], at: event.at };
      // halts, the kill switch and the heartbeat have their own alerts; a run not started yet is no news
      if (!worsened(previous, state) || previous.reasons.some((r) => r.kind === 'notStarted') || state.reasons.some((r) => r.kind === 'stopped')) return undefined;
      if (added.length > 0 && added.every((r) => r.kind === 'halt' || r.kind === 'killSwitch' || r.kind === 'heartbeatLost')) return undefined;
      return {
        kind: 'health',
        severity: state.health === 'atRisk' || state.health === 'halted' ? 'critical' : 'warning',
        title: `${run}: health ${previous.health}/${previous.permission} -> ${state.health}/${state.permission}`,
        detail: state.reasons.map(describeReason),
        at: event.at,
      };
    }
    case 'lifecycle': {
      const e = event.event;
      if (e.type !== 'Halted') return undefined;
      if (e.name === 'killSwitch') return { kind: 'killSwitch', severity: 'critical', title: `${run}: kill switch tripped, trading halted`, detail: [e.reason], at: e.tsInit };
      return { kind: 'halt', severity: 'critical', title: `${run}: trading halted (${e.name})`, detail: [e.reason, `halts on: ${e.halts.join(', ')}`], at: e.tsInit };
    }
    case 'heartbeat':
      if (event.health !== 'lost') return undefined;
      return { kind: 'heartbeatLost', severity: 'critical', title: `${run}: heartbeat lost, the venue has cancelled our open orders`, detail: ['new orders wait for an acknowledged heartbeat; open orders are reconciled then'], at: event.at };
    case 'fault':
      return { kind: 'strategyFaulted', severity: 'critical', title: `${run}: strategy ${event.strategyId} faulted`, detail: [firstLine(event.message)], at: event.at };
    default:
      return undefined;
  }
}

/** The daily-loss alert: the run's net PnL below minus the threshold. */
export function dailyLossAlert(run: string, netUsdc: number, thresholdUsdc: number, at: number): Alert | undefined {
  if (!(netUsdc < -thresholdUsdc)) return undefined;
  return { kind: 'dailyLoss', severity: 'critical', title: `${run}: loss of ${(-netUsdc).toFixed(2)} USDC today, past the ${thresholdUsdc.toFixed(2)} threshold`, detail: [`net PnL ${netUsdc.toFixed(2)} USDC`], at };
}

/** The end of the run, with its summary lines. */
export function runEndedAlert(run: string, lines: readonly string[], at: number, failed: boolean): Alert {
  return { kind: 'runEnded', severity: failed ? 'critical' : 'info', title: `${run}: run ended${failed ? ' (failed closed)' : ''}`, detail: lines, at };
}

function newReasons(before: readonly HealthReason[], after: readonly HealthReason[]): HealthReason[] {
  return after.filter((r) => !before.some((b) => b.kind === r.kind));
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
