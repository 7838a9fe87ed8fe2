import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Micros } from '../core/fixed.ts';
import type { TokenId } from '../core/types.ts';
import type { BacktestResult } from './backtest-result.ts';
import { fmtMoney, fmtRewards, summaryRows } from './summary-rows.ts';

/** How many tokens get a price chart with their fills (those with the most fills). */
export const REPORT_PRICE_CHARTS = 4;
/** Fill markers drawn per price chart at most (the latest ones). */
export const REPORT_MAX_MARKERS = 2_000;

let chartLibrary: string | undefined;

/** The charting library's standalone build (TradingView Lightweight Charts, Apache-2.0), inlined into each report. */
function chartScript(): string {
  if (chartLibrary === undefined) {
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve('lightweight-charts/package.json'));
    chartLibrary = readFileSync(join(dir, 'dist', 'lightweight-charts.standalone.production.js'), 'utf8');
  }
  return chartLibrary;
}

interface ReportData {
  equity: [number, number][];
  /** Accrued liquidity rewards, USDC (empty when no market pays rewards). */
  rewards: [number, number][];
  drawdown: [number, number][];
  prices: { tokenId: string; title: string; fills: number; points: [number, number][]; markers: [number, 'BUY' | 'SELL', number, number, 'MAKER' | 'TAKER'][] }[];
}

const toUnits = (m: Micros): number => m / 1_000_000;

/**
 * Series on a time axis in whole seconds, strictly increasing (the chart's requirement): points in
 * the same second keep the last one.
 */
function bySecond(t: readonly number[], values: readonly (number | null)[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < t.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    const s = Math.floor(t[i]! / 1000);
    if (out.length > 0 && out[out.length - 1]![0] === s) out[out.length - 1] = [s, v];
    else out.push([s, v]);
  }
  return out;
}

/** The time of the last point at or before `second` (the first point when there is none). */
function snap(points: readonly [number, number][], second: number): number {
  let lo = 0;
  let hi = points.length - 1;
  if (hi < 0) return second;
  if (points[0]![0] >= second) return points[0]![0];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (points[mid]![0] <= second) lo = mid;
    else hi = mid - 1;
  }
  return points[lo]![0];
}

function reportData(result: BacktestResult): ReportData {
  const { curve, fills, tokens } = result;
  // the trail (a point a second, thinned on long runs) draws; the coarser grid is the returns' basis
  const equity = curve.trail.v.map(toUnits);
  let peak = -Infinity;
  const drawdown = equity.map((e) => {
    peak = Math.max(peak, e);
    return e - peak;
  });
  const fillCount = new Map<TokenId, number>();
  for (const f of fills) fillCount.set(f.tokenId, (fillCount.get(f.tokenId) ?? 0) + 1);
  const ranked = tokens
    .map((t, i) => ({ t, i, n: fillCount.get(t.tokenId) ?? 0 }))
    .filter((x) => x.n > 0 || fills.length === 0)
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .slice(0, REPORT_PRICE_CHARTS);
  const prices = ranked.map(({ t, n }) => {
    const trail = curve.prices.get(t.tokenId);
    const points = trail ? bySecond(trail.t, trail.v.map(toUnits)) : [];
    const own = fills.filter((f) => f.tokenId === t.tokenId).slice(-REPORT_MAX_MARKERS);
    // each marker sits on the price point at or before its fill (the chart places markers on points)
    const markers = own.map((f) => [snap(points, Math.floor(f.t / 1000)), f.side, toUnits(f.price), toUnits(f.size), f.liquidity] as ReportData['prices'][number]['markers'][number]);
    return { tokenId: t.tokenId, title: `${t.question} — ${t.outcome}`, fills: n, points, markers };
  });
  const trail = result.rewardTrail;
  const rewards = trail === undefined || result.summary.rewards.markets.length === 0 ? [] : bySecond(trail.t, trail.v);
  return { equity: bySecond(curve.trail.t, equity), rewards, drawdown: bySecond(curve.trail.t, drawdown), prices };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * `report.html`: one self-contained page (the charting library inlined, no request to any
 * network) with the summary, the equity curve, the drawdown, per-market PnL as a table and
 * bars, and the price of the most-traded tokens with our fills as markers.
 */
export function renderReport(result: BacktestResult): string {
  const s = result.summary;
  const data = reportData(result);
  const maxAbs = Math.max(1e-9, ...s.markets.map((row) => Math.abs(Number(row.pnl.total))));
  const metricRows = summaryRows(s);
  const marketRows = s.markets
    .map((row) => {
      const v = Number(row.pnl.total);
      const width = ((Math.abs(v) / maxAbs) * 100).toFixed(1);
      return `<tr><td class="q">${escapeHtml(row.question)}<div class="id">${escapeHtml(row.conditionId)}</div></td><td>${row.fills}</td><td>${fmtMoney(row.volume)}</td><td>${fmtMoney(row.fees)}</td><td>${fmtMoney(row.pnl.realized)}</td><td>${fmtMoney(row.pnl.unrealized)}</td><td>${fmtMoney(row.pnl.total)}</td><td class="bar"><div class="${v < 0 ? 'neg' : 'pos'}" style="width:${width}%"></div></td></tr>`;
    })
    .join('\n');
  // the same names and figures as the run summary's `account` and `clobot status`
  const a = result.engine.account;
  const accountRows: [string, string][] = [
    ['Cash', a.cash],
    ['Reserved (open BUY orders)', a.reserved],
    ['Free', a.free],
    ['Position value', a.positionValue],
    ['Complete sets held (pairs, full neg-risk sets)', a.completeSets],
    ['Complete sets at payout (in position value)', a.setValue],
    ['Same shares at mid', a.setMarkValue],
    ['Equity (cash + position value)', a.equity],
    ['Realized', a.realized],
    ['Unrealized', a.unrealized],
    ['Fees', a.fees],
  ];
  const strategies = s.strategies.map((x) => `${escapeHtml(x.id)} (${escapeHtml(x.module)}) ${escapeHtml(JSON.stringify(x.params))}`).join('<br>');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>Backtest ${escapeHtml(s.name)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d2733; background: #fff; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 28px 0 8px; }
.meta { color: #5b6775; } table { border-collapse: collapse; }
td, th { padding: 4px 10px; border-bottom: 1px solid #e3e7ec; text-align: right; vertical-align: top; }
th { background: #f4f6f8; } td.q, th.q { text-align: left; max-width: 420px; } .id { color: #8a96a3; font-size: 11px; }
table.kv td:first-child { text-align: left; color: #5b6775; }
td.bar { width: 200px; } .bar div { height: 12px; } .pos { background: #26a69a; } .neg { background: #ef5350; }
.chart { width: 100%; max-width: 1100px; height: 300px; }
</style>
</head>
<body>
<h1>Backtest ${escapeHtml(s.name)}${s.data.partial ? ' (partial: stopped before the end of the data)' : ''}</h1>
<div class="meta">${escapeHtml(s.data.file)} (${escapeHtml(s.data.source)}) from ${escapeHtml(s.data.from ?? '—')} to ${escapeHtml(s.data.to ?? '—')};
${s.data.markets} markets, ${s.data.tokens} tokens; balance ${s.settings.balance}; latency ${s.settings.entryLatencyMs} ms in, ${s.settings.responseLatencyMs} ms back;
queue model ${escapeHtml(s.settings.queueModel)}; fees from ${escapeHtml(s.settings.fees.source)}</div>
<div class="meta">${strategies}</div>
<h2>Summary</h2>
<table class="kv">${metricRows.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join('')}</table>
<h2>Account at the end</h2>
<table class="kv" id="account">${accountRows.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join('')}</table>
<h2>Equity</h2>
<div id="equity" class="chart"></div>
${s.rewards.markets.length === 0 ? '' : `<div class="meta" id="rewards">Rewards (estimated liquidity rewards, apart from trading PnL; orange line, left scale): ${escapeHtml(fmtRewards(s))}</div>`}
<h2>Drawdown</h2>
<div id="drawdown" class="chart" style="height:200px"></div>
${
  s.strategies.length < 2
    ? ''
    : `<h2>PnL by strategy</h2>
<table id="strategies"><tr><th class="q">strategy</th><th>fills</th><th>turnover</th><th>fees</th><th>realized</th><th>unrealized</th><th>total</th></tr>
${s.strategies.map((x) => `<tr><td class="q">${escapeHtml(x.id)}</td><td>${x.fills}</td><td>${fmtMoney(x.turnover)}</td><td>${fmtMoney(x.fees)}</td><td>${fmtMoney(x.pnl.realized)}</td><td>${fmtMoney(x.pnl.unrealized)}</td><td>${fmtMoney(x.pnl.total)}</td></tr>`).join('\n')}
</table>
<div class="meta">Each strategy's own fills; fills, turnover, fees and total add up to the run's (realized and unrealized follow each strategy's own average cost).</div>`
}
<h2>PnL by market</h2>
<table><tr><th class="q">market</th><th>fills</th><th>volume</th><th>fees</th><th>realized</th><th>unrealized</th><th>total</th><th></th></tr>
${marketRows}
</table>
${
  s.settled.length === 0
    ? ''
    : `<h2>Settled markets</h2>
<table><tr><th class="q">market</th><th class="q">winner</th><th>resolved</th><th>proceeds</th><th>realized</th></tr>
${s.settled.map((r) => `<tr><td class="q">${escapeHtml(r.conditionId)}</td><td class="q">${escapeHtml(r.winner ?? 'none (0.5 each)')}</td><td>${escapeHtml(r.at)}</td><td>${r.proceeds}</td><td>${r.realizedPnl}</td></tr>`).join('\n')}
</table>`
}
<h2>Prices and fills</h2>
<div id="prices"></div>
<script id="report-data" type="application/json">${scriptJson(data)}</script>
<script>${chartScript()}</script>
<script>
(function () {
  var LC = window.LightweightCharts;
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var charts = [];
  function make(el, height) {
    var chart = LC.createChart(el, { width: el.clientWidth || 900, height: height, layout: { background: { color: '#ffffff' }, textColor: '#1d2733' },
      timeScale: { timeVisible: true, secondsVisible: true }, rightPriceScale: { borderVisible: false } });
    charts.push(chart);
    return chart;
  }
  function series(points) { return points.map(function (p) { return { time: p[0], value: p[1] }; }); }
  var eq = make(document.getElementById('equity'), 300);
  eq.addSeries(LC.LineSeries, { color: '#2962ff', lineWidth: 2 }).setData(series(data.equity));
  if (data.rewards.length > 0) eq.applyOptions({ leftPriceScale: { visible: true, borderVisible: false } });
  if (data.rewards.length > 0) eq.addSeries(LC.LineSeries, { color: '#ff9800', lineWidth: 2, priceScaleId: 'left' }).setData(series(data.rewards));
  eq.timeScale().fitContent();
  var dd = make(document.getElementById('drawdown'), 200);
  dd.addSeries(LC.AreaSeries, { lineColor: '#ef5350', topColor: 'rgba(239,83,80,0.1)', bottomColor: 'rgba(239,83,80,0.5)', invertFilledArea: true }).setData(series(data.drawdown));
  dd.timeScale().fitContent();
  var box = document.getElementById('prices');
  data.prices.forEach(function (p) {
    var title = document.createElement('h3');
    title.textContent = p.title + ' (' + p.fills + ' fills)';
    title.style.fontSize = '14px';
    box.appendChild(title);
    var el = document.createElement('div');
    el.className = 'chart';
    box.appendChild(el);
    var chart = make(el, 300);
    var line = chart.addSeries(LC.LineSeries, { color: '#5d6b7a', lineWidth: 1, priceFormat: { type: 'price', precision: 4, minMove: 0.0001 } });
    line.setData(series(p.points));
    // each fill at its own price; labels only while they stay readable
    var labels = p.markers.length <= 40;
    LC.createSeriesMarkers(line, p.markers.map(function (f) {
      var buy = f[1] === 'BUY';
      var m = { time: f[0], position: 'atPriceMiddle', price: f[2], shape: buy ? 'arrowUp' : 'arrowDown', color: buy ? '#26a69a' : '#ef5350', size: 0.6 };
      if (labels) m.text = (buy ? 'B ' : 'S ') + f[3] + ' @ ' + f[2] + (f[4] === 'TAKER' ? ' (taker)' : '');
      return m;
    }));
    chart.timeScale().fitContent();
  });
  window.__report = { charts: charts.length, priceCharts: data.prices.length, markers: data.prices.reduce(function (a, p) { return a + p.markers.length; }, 0) };
})();
</script>
</body>
</html>
`;
}
