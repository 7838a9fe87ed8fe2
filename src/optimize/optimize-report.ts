import type { OptimizeSummary, TrialEntry } from './optimize-summary.ts';

/**
 * report.html of `clobot optimize`: one self-contained page (no script, inline SVG) with the
 * walk-forward table (each fold's best in-sample score against its out-of-sample score, side by
 * side as bars), the params' importance, the best points of each fold, and every trial's score in
 * the order tried. Rendered from optimize.json alone.
 */
export function renderOptimizeReport(s: OptimizeSummary): string {
  const title = `clobot optimize: ${s.objective.name} over ${s.space.map((p) => p.name).join(', ')}`;
  const parts: string[] = [];
  parts.push(`<h1>${esc(title)}${s.partial ? ' <span class="partial">(partial: stopped by Ctrl-C; the finished trials are kept)</span>' : ''}</h1>`);
  parts.push(
    `<p>${esc(s.config)} on ${esc(s.data.join(', '))}. Objective <b>${esc(s.objective.name)}</b>: ${esc(s.objective.describe)}; trials with fewer than ${s.minFills} fills have no score. ` +
      `Search: ${s.sampler === 'tpe' ? `TPE (the first ${s.startup} trials of each fold uniform)` : 'random'}, ${s.trialsPerFold} trials per fold in batches of ${s.batch}, seed ${s.seed}. ` +
      (s.walkForward
        ? `Walk-forward: each fold searches its in-sample window and its best point is then run on the next window, which the search never saw.</p>`
        : `No walk-forward: one search on the whole data; nothing is held out, so the score below is in-sample only.</p>`),
  );
  if (s.best) {
    parts.push(`<h2>Best point</h2><p>From fold ${s.best.fold} (the most recent in-sample window): <code>${esc(s.best.sets.map((x) => `--set ${x}`).join(' '))}</code></p>`);
    parts.push(
      `<p>In-sample ${esc(s.objective.name)} ${fmt(s.best.inSample)}${s.walkForward ? `, out-of-sample ${fmt(s.best.outOfSample)}` : ''}.` +
        (s.overall.foldsScored > 0 ? ` Over ${s.overall.foldsScored} fold(s): mean in-sample ${num(s.overall.meanInSample)}, mean out-of-sample ${num(s.overall.meanOutOfSample)}.` : '') +
        '</p>',
    );
  } else {
    parts.push('<h2>Best point</h2><p>No trial has a score (see the reasons in the trials table).</p>');
  }
  parts.push('<h2>In-sample against out-of-sample</h2>');
  parts.push(table(
    ['fold', 'in-sample window', 'out-of-sample window', 'trials', 'best trial', 'params', 'in-sample', 'out-of-sample', 'oos fills'],
    s.folds.map((f) => [
      String(f.number),
      `${f.inSample.from} → ${f.inSample.to}`,
      f.outOfSample ? `${f.outOfSample.from} → ${f.outOfSample.to}` : '-',
      String(f.trials),
      f.best ? `#${f.best.trial}` : '-',
      f.best ? Object.entries(f.best.params).map(([k, v]) => `${k}=${String(v)}`).join(' ') : '-',
      fmt(f.best?.score ?? null),
      f.outOfSampleResult ? (f.outOfSampleResult.score !== null ? fmt(f.outOfSampleResult.score) : `n/a (${f.outOfSampleResult.reason})`) : '-',
      f.outOfSampleResult ? String(f.outOfSampleResult.fills) : '-',
    ]),
  ));
  if (s.walkForward) parts.push(foldBars(s));
  parts.push('<h2>Parameter importance</h2><p>The share of the spread of in-sample scores each param accounts for on its own (η² of the scores grouped by its value; averaged over the folds).</p>');
  parts.push(bars(s.importance.map((x) => [x.name, x.importance]), 1, (v) => (v === null ? 'n/a' : `${(v * 100).toFixed(0)}%`)));
  parts.push('<h2>Best points</h2>');
  for (const f of s.folds) {
    const top = s.trials.filter((t) => t.fold === f.number && t.score !== null && t.repeatOf === null).sort((a, b) => compare(b, a, s.objective.higherIsBetter) || a.number - b.number).slice(0, 10);
    parts.push(`<h3>Fold ${f.number}</h3>`);
    parts.push(table(['trial', ...s.space.map((p) => p.name), s.objective.name, 'fills', 'pnl'], top.map((t) => [`#${t.number}`, ...s.space.map((p) => String(t.params[p.name])), fmt(t.score), String(t.fills), fmt(t.pnl)])));
  }
  parts.push('<h2>Every trial, in the order tried</h2>');
  parts.push(progress(s));
  parts.push(table(
    ['fold', 'trial', ...s.space.map((p) => p.name), s.objective.name, 'fills', 'pnl', 'note'],
    s.trials.map((t) => [String(t.fold), `#${t.number}`, ...s.space.map((p) => String(t.params[p.name])), fmt(t.score), String(t.fills), fmt(t.pnl), t.reason ?? (t.repeatOf !== null ? `same point as #${t.repeatOf}` : '')]),
  ));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2430;max-width:1200px}
table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #d5dbe3;padding:3px 8px;text-align:left;font-variant-numeric:tabular-nums}
th{background:#f1f4f8}.partial{color:#b54708;font-size:60%}code{background:#f1f4f8;padding:2px 4px}
svg text{font:11px system-ui,sans-serif}
</style></head><body>
${parts.join('\n')}
</body></html>
`;
}

function compare(a: TrialEntry, b: TrialEntry, higherIsBetter: boolean): number {
  const d = Number(a.score) - Number(b.score);
  return higherIsBetter ? Math.sign(d) : -Math.sign(d);
}

/** Each fold's in-sample and out-of-sample scores as pairs of bars around a zero line. */
function foldBars(s: OptimizeSummary): string {
  const rows = s.folds.map((f) => ({ n: f.number, is: f.best?.score != null ? Number(f.best.score) : null, oos: f.outOfSampleResult?.score != null ? Number(f.outOfSampleResult.score) : null }));
  const values = rows.flatMap((r) => [r.is, r.oos]).filter((v): v is number => v !== null);
  if (values.length === 0) return '';
  const top = Math.max(0, ...values);
  const bottom = Math.min(0, ...values);
  const span = top - bottom || 1;
  const h = 180;
  const w = Math.max(240, rows.length * 90 + 60);
  const y = (v: number): number => 10 + ((top - v) / span) * (h - 30);
  const out: string[] = [`<svg width="${w}" height="${h + 20}" role="img" aria-label="in-sample against out-of-sample per fold">`];
  out.push(`<line x1="40" x2="${w}" y1="${y(0)}" y2="${y(0)}" stroke="#8a94a6"/>`);
  rows.forEach((r, i) => {
    const x = 50 + i * 90;
    for (const [k, v, color] of [[0, r.is, '#3563c9'], [1, r.oos, '#e07b28']] as const) {
      if (v === null) continue;
      const y0 = y(Math.max(0, v));
      const y1 = y(Math.min(0, v));
      out.push(`<rect x="${x + k * 32}" y="${y0}" width="28" height="${Math.max(1, y1 - y0)}" fill="${color}"><title>fold ${r.n} ${k === 0 ? 'in-sample' : 'out-of-sample'}: ${v}</title></rect>`);
    }
    out.push(`<text x="${x}" y="${h + 12}">fold ${r.n}</text>`);
  });
  out.push(`<text x="${w - 170}" y="14" fill="#3563c9">■ in-sample</text><text x="${w - 90}" y="14" fill="#e07b28">■ out-of-sample</text></svg>`);
  return out.join('');
}

/** Every scored trial's score against its order, one colour per fold. */
function progress(s: OptimizeSummary): string {
  const pts = s.trials.filter((t) => t.score !== null);
  if (pts.length === 0) return '';
  const colors = ['#3563c9', '#e07b28', '#2e9d5b', '#b03a8f', '#7a5cc7', '#c9a227'];
  const maxN = Math.max(...s.trials.map((t) => t.number));
  const vs = pts.map((t) => Number(t.score));
  const top = Math.max(...vs);
  const bottom = Math.min(...vs);
  const span = top - bottom || 1;
  const w = 720;
  const h = 200;
  const out = [`<svg width="${w}" height="${h}" role="img" aria-label="score by trial">`, `<text x="2" y="12">${esc(num(top))}</text><text x="2" y="${h - 4}">${esc(num(bottom))}</text>`];
  for (const t of pts) {
    const x = 60 + ((t.number - 1) / Math.max(1, maxN - 1)) * (w - 80);
    const y = 10 + ((top - Number(t.score)) / span) * (h - 30);
    out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="3" fill="${colors[(t.fold - 1) % colors.length]}"><title>fold ${t.fold} #${t.number}: ${esc(t.score!)}</title></circle>`);
  }
  out.push('</svg>');
  return out.join('');
}

function bars(rows: readonly [string, number | null][], max: number, label: (v: number | null) => string): string {
  const w = 420;
  const out = [`<svg width="${w + 260}" height="${rows.length * 22 + 6}" role="img" aria-label="parameter importance">`];
  rows.forEach(([name, v], i) => {
    const y = 4 + i * 22;
    out.push(`<text x="0" y="${y + 13}">${esc(name)}</text>`);
    if (v !== null) out.push(`<rect x="180" y="${y}" width="${Math.max(1, (v / max) * w)}" height="16" fill="#3563c9"/>`);
    out.push(`<text x="${184 + (v === null ? 0 : (v / max) * w)}" y="${y + 13}">${esc(label(v))}</text>`);
  });
  out.push('</svg>');
  return out.join('');
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

function fmt(score: string | null): string {
  return score === null ? 'n/a' : num(Number(score));
}

function num(v: number | null): string {
  if (v === null) return 'n/a';
  const t = Math.abs(v) >= 100 ? v.toFixed(2) : Number(v.toPrecision(4)).toString();
  return t === '-0' ? '0' : t;
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
