import { Dec, type Micros } from '../core/fixed.ts';

/**
 * Risk-adjusted ratios of a backtest, each from the equity curve's returns on one stated basis:
 * simple returns between points of the equity curve sampled every `backtest.equityIntervalMs`
 * of virtual time (default one minute), annualised by √(periods in 365 days) with a risk-free rate
 * of 0. A ratio needs MIN_RETURNS returns at least: from fewer it says nothing (one lucky minute
 * is no Sharpe of 40), so it is not given and the reason says how many there were and how much
 * data the basis needs.
 */

/** Milliseconds in the year the ratios are annualised over: 365 days (the venue never closes). */
export const YEAR_MS = 365 * 86_400_000;

/** Returns a ratio needs at least (30 minutes of data at the default one-minute basis). */
export const MIN_RETURNS = 30;

/**
 * Data Calmar needs at least: 30 days. It annualises the return by compounding, so over hours a
 * small gain becomes a huge number that says nothing about a year.
 */
export const MIN_CALMAR_MS = 30 * 86_400_000;

/** How the ratios were sampled, and how many samples there were. */
export interface ReturnsBasis {
  /** One return per this much virtual time (`backtest.equityIntervalMs`). */
  readonly intervalMs: number;
  /** How many returns the curve gave. */
  readonly returns: number;
  /** How many a ratio needs. */
  readonly minReturns: number;
}

export interface Performance {
  readonly basis: ReturnsBasis;
  /** Annualised mean return over its sample standard deviation; undefined with `reason`. */
  readonly sharpe: Dec | undefined;
  /** Annualised mean return over the downside deviation (returns below 0); undefined with `reason` or `sortinoReason`. */
  readonly sortino: Dec | undefined;
  /** Annualised (compounded) return over the largest drawdown's share of its peak; undefined with `reason` or `calmarReason`. */
  readonly calmar: Dec | undefined;
  /** Why no ratio is given, when none is: too few returns, or returns that never vary. */
  readonly reason: string | undefined;
  readonly sortinoReason: string | undefined;
  readonly calmarReason: string | undefined;
}

/** `1m`, `10s`, `1h 30m`, `2d 3h`: a span for people (its two largest units). */
export function formatSpan(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const units: [string, number][] = [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000]];
  const parts: string[] = [];
  let rest = ms;
  for (const [name, size] of units) {
    const n = Math.floor(rest / size);
    if (n > 0 && parts.length < 2) parts.push(`${n}${name}`);
    if (parts.length > 0 && n === 0 && parts.length < 2) break;
    rest -= n * size;
  }
  return parts.join(' ');
}

/** The basis in words: `45 returns of 1m`. */
export function describeBasis(b: ReturnsBasis): string {
  return `${b.returns} returns of ${formatSpan(b.intervalMs)}`;
}

/**
 * The ratios of `equity` (points every `intervalMs`), with `maxDrawdownFraction` the curve's
 * largest fall as a share of its peak. Exact decimal arithmetic: the same curve gives the same digits.
 */
export function performance(equity: readonly Micros[], intervalMs: number, maxDrawdownFraction: Dec): Performance {
  const basis: ReturnsBasis = { intervalMs, returns: Math.max(0, equity.length - 1), minReturns: MIN_RETURNS };
  const none = (reason: string): Performance => ({ basis, sharpe: undefined, sortino: undefined, calmar: undefined, reason, sortinoReason: undefined, calmarReason: undefined });
  if (basis.returns < MIN_RETURNS) {
    return none(`only ${basis.returns} returns of ${formatSpan(intervalMs)}; a ratio needs ${MIN_RETURNS} or more, that is ${formatSpan(MIN_RETURNS * intervalMs)} of data at this basis`);
  }
  const returns: Dec[] = [];
  for (let i = 1; i < equity.length; i++) {
    const prev = equity[i - 1]!;
    if (prev <= 0) return none('equity fell to 0 or below');
    returns.push(new Dec(equity[i]!).div(prev).minus(1));
  }
  let sum = new Dec(0);
  for (const r of returns) sum = sum.plus(r);
  const mean = sum.div(returns.length);
  let ss = new Dec(0);
  let downside = new Dec(0);
  for (const r of returns) {
    const d = r.minus(mean);
    ss = ss.plus(d.mul(d));
    if (r.isNegative() && !r.isZero()) downside = downside.plus(r.mul(r));
  }
  const variance = ss.div(returns.length - 1);
  if (variance.isZero()) return none(`the ${basis.returns} returns never vary (equity flat or growing evenly)`);
  const periods = new Dec(YEAR_MS).div(intervalMs);
  const annual = periods.sqrt();
  const sharpe = mean.div(variance.sqrt()).mul(annual);
  const downsideDev = downside.div(returns.length).sqrt();
  const sortino = downsideDev.isZero() ? undefined : mean.div(downsideDev).mul(annual);
  // compounded over the span the returns cover, to a year
  const growth = new Dec(equity[equity.length - 1]!).div(equity[0]!);
  const annualReturn = growth.pow(periods.div(returns.length)).minus(1);
  const spanMs = returns.length * intervalMs;
  const calmarReason = spanMs < MIN_CALMAR_MS ? `needs ${MIN_CALMAR_MS / 86_400_000} days of data, had ${formatSpan(spanMs)}` : maxDrawdownFraction.isZero() ? 'no drawdown' : undefined;
  const calmar = calmarReason === undefined ? annualReturn.div(maxDrawdownFraction) : undefined;
  return {
    basis,
    sharpe,
    sortino,
    calmar,
    reason: undefined,
    sortinoReason: sortino === undefined ? 'no return below 0' : undefined,
    calmarReason,
  };
}
