import { Dec } from '../core/fixed.ts';
import type { BacktestSummary } from './summary.ts';

/**
 * The backtest summary for people: the same figures as summary.json (which keeps every digit),
 * rounded for reading. The CLI's table and the report both show these rows, so the three never
 * disagree on what was measured.
 */

/** A value that rounds to zero shows without its sign: `0.00`, never `-0.00`. */
function unsigned(text: string): string {
  return text.startsWith('-') && !/[1-9]/.test(text) ? text.slice(1) : text;
}

function grouped(fixed: string): string {
  const [int, frac] = fixed.split('.');
  const sign = int!.startsWith('-') ? '-' : '';
  const digits = sign ? int!.slice(1) : int!;
  const withCommas = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return unsigned(`${sign}${withCommas}${frac !== undefined ? `.${frac}` : ''}`);
}

/** Collateral: two decimals, thousands grouped (`1,234.50`, `-0.07`). */
export function fmtMoney(text: string): string {
  return grouped(new Dec(text).toFixed(2));
}

/** A share as a percentage with two decimals (`12.34%`), four when it is below 0.01% (`0.0012%`). */
export function fmtPercent(text: string | null): string {
  if (text === null) return 'n/a';
  const pct = new Dec(text).mul(100);
  return unsigned(`${pct.toFixed(!pct.isZero() && pct.abs().lt(0.01) ? 4 : 2)}%`);
}

/** A ratio with two decimals (`1.87`). */
export function fmtRatio(text: string | null): string {
  return text === null ? 'n/a' : grouped(new Dec(text).toFixed(2));
}

/** A price move per share with four decimals (`-0.0012`). */
export function fmtPrice(text: string | null): string {
  return text === null ? 'n/a' : unsigned(new Dec(text).toFixed(4));
}

/** A strategy's own figure: as it is when short, else to 6 significant digits (`0.000123457`, `1234.57`). */
export function fmtNumber(value: number): string {
  const text = String(value);
  if (text.length <= 10) return text === '-0' ? '0' : text;
  return String(Number(value.toPrecision(6)));
}

/** `name=value` of each strategy's own figures (`bq.fills=3 bq.edge=0.12`); `-` without any. */
export function fmtStrategyMetrics(s: BacktestSummary): string {
  const parts = s.strategies.flatMap((x) => Object.entries(x.metrics).map(([name, v]) => `${s.strategies.length > 1 ? `${x.id}.` : ''}${name}=${fmtNumber(v)}`));
  return parts.length === 0 ? '-' : parts.join(' ');
}

/** `code 3, other 1` from counts by code, most first; `none` when empty. */
export function fmtCounts(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  if (entries.length === 0) return 'none';
  return entries
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
}

/** A ratio with its basis, or `n/a (why)`. */
function withBasis(value: string | null, note: string | null, s: BacktestSummary): string {
  if (value !== null) return `${fmtRatio(value)} (${s.metrics.ratios.basis}, annualised)`;
  return `n/a (${note ?? 'not measured'})`;
}

/** Accrued liquidity rewards, USDC with 4 decimals, and over how many samples (`0.0412 over 180 samples`). */
export function fmtRewards(s: BacktestSummary): string {
  const r = s.rewards;
  if (r.markets.length === 0) return 'n/a (no market pays rewards)';
  return `${new Dec(r.total).toFixed(4)} over ${r.samples} samples of ${r.sampleMs / 1000} s`;
}

/** The summary's figures as label/value rows, in the order the table and the report show them. */
export function summaryRows(s: BacktestSummary): [string, string][] {
  const m = s.metrics;
  const notes = m.ratios.notes;
  const rows: [string, string][] = [
    ['events', m.events.toLocaleString('en-US')],
    ['queue model', s.settings.queueModel],
    ['fills (maker/taker)', `${m.fills} (${m.makerFills}/${m.takerFills})`],
    ['pnl realized', fmtMoney(m.pnl.realized)],
    ['pnl unrealized', fmtMoney(m.pnl.unrealized)],
    // worded as `clobot status` words it: the count, then its value at payout, then at mid
    ['complete sets', Number(m.completeSets.sets) === 0 ? 'none held' : `${m.completeSets.sets} valued at payout ${fmtMoney(m.completeSets.value)} (at mid ${fmtMoney(m.completeSets.markValue)})`],
    ['fees', fmtMoney(m.fees)],
    ['pnl total', fmtMoney(m.pnl.total)],
    // apart from trading PnL: not in the return, equity or ratios (docs/rewards.md)
    ['rewards (estimated, apart from pnl)', fmtRewards(s)],
    ['return', fmtPercent(m.return)],
    ['sharpe', withBasis(m.sharpe, notes.sharpe, s)],
    ['sortino', withBasis(m.sortino, notes.sortino, s)],
    ['calmar', withBasis(m.calmar, notes.calmar, s)],
    ['max drawdown', `${fmtMoney(m.maxDrawdown.amount)} (${fmtPercent(m.maxDrawdown.fraction)})`],
    ['exposure', `${fmtPercent(m.exposure)} of the time`],
    ['turnover', fmtMoney(m.turnover)],
    ['fill ratio', m.fillRatio === null ? 'n/a (no orders)' : `${fmtPercent(m.fillRatio)} (${m.filledOrders} of ${s.orders.submitted} orders filled)`],
    ['win rate', m.winRate === null ? 'n/a (no closing fills)' : `${fmtPercent(m.winRate)} of ${m.closingFills} closing fills`],
  ];
  for (const x of m.markouts) {
    rows.push([`mark-out ${x.horizon}`, x.fills === 0 ? 'n/a (no fill marked)' : `${fmtMoney(x.pnl)} (${fmtPrice(x.perShare)} a share, ${x.fills} fills)`]);
  }
  for (const x of s.strategies) {
    for (const [name, value] of Object.entries(x.metrics)) rows.push([`${x.id}: ${name}`, fmtNumber(value)]);
  }
  rows.push(['orders', `${s.orders.submitted} submitted, ${s.orders.rejected} rejected, ${s.orders.denied} denied, ${s.orders.canceled} canceled`]);
  if (s.orders.denied > 0) rows.push(['denied by code', fmtCounts(s.orders.deniedByCode)]);
  if (s.orders.rejected > 0) rows.push(['rejected by reason', fmtCounts(s.orders.rejectedByReason)]);
  return rows;
}
