import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openBacktestData } from '../../src/backtest/data-file.ts';
import { parseSweepAxis, sweepGrid } from '../../src/backtest/param-overrides.ts';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { serializeSummary } from '../../src/backtest/summary.ts';
import { syntheticEvents, syntheticHeader } from '../../src/backtest/synthetic-recording.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { Dec } from '../../src/core/fixed.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';
import { TempDir } from './helpers.ts';

/** `clobot backtest` as a user runs it: a real process on a recording file on disk. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const tmp = new TempDir();
afterAll(() => tmp.remove());

function clobot(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/clobot.mjs', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CONFIG = `
mode: backtest
name: cli-check
data:
  markets: { filter: { maxCount: 2 } }
strategies:
  - id: bq
    module: strategies/02-band-quoter.ts
    params: { size: 10, halfSpreadTicks: 1, requoteTicks: 1 }
backtest:
  latencyMs: 25
  fees: { makerBps: 0, takerBps: 10 }
  equityIntervalMs: 10000
`;

async function writeRecording(path: string, form: 'text' | 'binary'): Promise<void> {
  const options = { seed: 11, markets: 2, depth: 8, events: 3_000, meanGapMs: 400 };
  const writer = createRecordingWriter(path, syntheticHeader(options), { form });
  for (const event of syntheticEvents(options)) writer.write(event);
  await writer.close();
}

describe('clobot backtest', async () => {
  const configPath = tmp.write('cli-check.yaml', CONFIG);
  const textFile = tmp.path('rec.jsonl.gz');
  const binaryFile = tmp.path('rec.bin');
  await writeRecording(textFile, 'text');
  await writeRecording(binaryFile, 'binary');

  it('replays a recording, prints the summary table and writes summary.json and report.html', async () => {
    const out = tmp.path('single');
    const r = clobot(['backtest', configPath, '--data', textFile, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^metric\s+value$/m);
    expect(r.stdout).toMatch(/^pnl total\s+-?\d/m);
    expect(r.stdout).toContain('Synthetic market 1?');
    expect(r.stdout).toContain(`wrote ${join(out, 'summary.json')}`);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<title>Backtest cli-check</title>');
    // the same run in this process gives the same bytes; so does the binary form of the same data
    const config = loadConfig(configPath);
    const inProcess = await runBacktest({ config, data: await openBacktestData(textFile) });
    const written = readFileSync(join(out, 'summary.json'), 'utf8');
    expect(written).toBe(serializeSummary(inProcess.summary));
    const fromBinary = await runBacktest({ config, data: await openBacktestData(binaryFile) });
    expect(serializeSummary(fromBinary.summary).replaceAll('"rec.bin"', '"rec.jsonl.gz"')).toBe(written);
    expect(inProcess.metrics.fills).toBeGreaterThan(0);
  });

  it('runs a sweep on worker threads; every point equals the same point run in-process', async () => {
    const out = tmp.path('sweep');
    const r = clobot(['backtest', configPath, '--data', binaryFile, '--out', out, '--sweep', 'bq.halfSpreadTicks=1,2', '--sweep', 'requoteTicks=1,3', '--workers', '2', '--sort', 'fills']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^point\s+pnl\s+return\s+sharpe\s+maxDrawdown\s+fills\s+fees\s+winRate\s+denied \/ rejected$/);
    const rows = lines.slice(2, 6);
    expect(rows).toHaveLength(4);
    // why a point did not fill: its denials and rejects by code
    for (const row of rows) expect(row).toMatch(/\s(?:-|(?:denied (?:[A-Z_]+ \d+(?:, )?)+)?(?:; )?(?:rejected .+)?)$/);
    expect(lines[6]).toBe('sharpe: from returns of the equity every 10 s, annualised; n/a below 30 returns');
    // sorted by fills, best first
    const fills = rows.map((l) => Number(l.trim().split(/\s+/)[5]));
    expect([...fills].sort((a, b) => b - a)).toEqual(fills);
    const index = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as { points: { label: string }[] };
    expect(index.points.map((p) => p.label).sort()).toEqual(
      ['bq.halfSpreadTicks=1_bq.requoteTicks=1', 'bq.halfSpreadTicks=1_bq.requoteTicks=3', 'bq.halfSpreadTicks=2_bq.requoteTicks=1', 'bq.halfSpreadTicks=2_bq.requoteTicks=3'],
    );
    const axes = [parseSweepAxis('bq.halfSpreadTicks=1,2', ['bq']), parseSweepAxis('requoteTicks=1,3', ['bq'])];
    const summaries = new Set<string>();
    for (const overrides of sweepGrid(axes)) {
      const label = overrides.map((o) => `${o.key}=${String(o.value)}`).join('_');
      const local = await runBacktest({ config: loadConfig(configPath, process.env, { overrides }), data: await openBacktestData(binaryFile) });
      const text = serializeSummary(local.summary);
      expect(readFileSync(join(out, label, 'summary.json'), 'utf8')).toBe(text);
      expect(existsSync(join(out, label, 'report.html'))).toBe(true);
      expect(local.summary.strategies[0]!.params).toMatchObject({ halfSpreadTicks: overrides[0]!.value, requoteTicks: overrides[1]!.value });
      summaries.add(text);
    }
    // the parameters matter: four different results
    expect(summaries.size).toBe(4);
  });

  // four clobot processes one after another: 66 s at the heaviest load CI saw, of the default limit
  // of 120 (a hang's bound, which a loaded machine must not reach)
  it('--data a b (or a glob) replays the files as one run: the same summary as the whole recording; a sweep takes the same', async () => {
    const events = [...syntheticEvents({ seed: 11, markets: 2, depth: 8, events: 3_000, meanGapMs: 400 })];
    const head = syntheticHeader({ seed: 11, markets: 2 });
    const cut = events[1_500]!.tsInit;
    const parts: [string, MarketEvent[], 'text' | 'binary'][] = [
      [tmp.path('days/day1.jsonl.gz'), events.filter((e) => e.tsInit < cut), 'text'],
      [tmp.path('days/day2.bin'), events.filter((e) => e.tsInit >= cut), 'binary'],
    ];
    for (const [path, part, form] of parts) {
      const writer = createRecordingWriter(path, head, { form });
      for (const e of part) writer.write(e);
      await writer.close();
    }
    const whole = tmp.path('whole');
    expect(clobot(['backtest', configPath, '--data', binaryFile, '--out', whole, '--no-progress']).code).toBe(0);
    const split = tmp.path('split');
    const r = clobot(['backtest', configPath, '--data', parts[0]![0], parts[1]![0], '--out', split, '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    type Summary = { data: { file: string; files: string[] }; metrics: { fills: number } };
    const a = JSON.parse(readFileSync(join(whole, 'summary.json'), 'utf8')) as Summary;
    const b = JSON.parse(readFileSync(join(split, 'summary.json'), 'utf8')) as Summary;
    expect(b.data.files).toEqual(['day1.jsonl.gz', 'day2.bin']);
    expect(b.metrics.fills).toBeGreaterThan(0);
    expect({ ...b, data: { ...b.data, file: a.data.file, files: a.data.files } }).toEqual(a);
    // a quoted glob, in a sweep
    const out = tmp.path('glob-sweep');
    const s = clobot(['backtest', configPath, '--data', tmp.path('days/day*'), '--out', out, '--no-progress', '--workers', '1', '--sweep', 'bq.size=10,20']);
    expect(s.code, s.stderr).toBe(0);
    const point = JSON.parse(readFileSync(join(out, 'bq.size=10', 'summary.json'), 'utf8')) as Summary;
    expect(point.metrics).toEqual(b.metrics);
    const none = clobot(['backtest', configPath, '--data', tmp.path('days/*.csv')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`--data: '${tmp.path('days/*.csv')}' matches no file\n`);
  }, 240_000);

  it('refuses data that is not a recording nor a usable store, with one line and exit 2', () => {
    const junk = tmp.write('junk.bin', 'hello, world\n');
    const r = clobot(['backtest', configPath, '--data', junk]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${junk}: not a recording (expected a clobot recording: JSON lines or the binary form, optionally gzipped)\n`);
    const store = tmp.path('run.sqlite');
    writeFileSync(store, Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(84)]));
    const s = clobot(['backtest', configPath, '--data', store]);
    expect(s.code).toBe(2);
    expect(s.stderr).toBe(`clobot: ${store}: not a SQLite database (file is not a database)\n`);
    const missing = clobot(['backtest', configPath, '--data', tmp.path('nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read data file \(no such file: ENOENT\)/);
  });

  it('a two-minute backtest shows Sharpe as n/a with its reason; a long one shows it with its basis, in the table, summary.json and the report', () => {
    const times = [...syntheticEvents({ seed: 11, markets: 2, depth: 8, events: 3_000, meanGapMs: 400 })].map((e) => e.tsInit);
    const to = String(times[0]! + 120_000);
    const shortOut = tmp.path('two-minutes');
    const short = clobot(['backtest', configPath, '--data', binaryFile, '--out', shortOut, '--to', to, '--set', 'backtest.equityIntervalMs=60000']);
    expect(short.code, short.stderr).toBe(0);
    const reason = 'only 2 returns of 1m; a ratio needs 30 or more, that is 30m of data at this basis';
    expect(short.stdout).toMatch(new RegExp(`^sharpe +n/a \\(${escapeRegExp(reason)}\\)$`, 'm'));
    const shortSummary = JSON.parse(readFileSync(join(shortOut, 'summary.json'), 'utf8')) as { metrics: { sharpe: string | null; ratios: { notes: { sharpe: string } } } };
    expect(shortSummary.metrics.sharpe).toBeNull();
    expect(shortSummary.metrics.ratios.notes.sharpe).toBe(reason);
    expect(readFileSync(join(shortOut, 'report.html'), 'utf8')).toContain(`n/a (${reason})`);
    expect(short.stdout).toMatch(/^replayed [\d,]+ events in [\d.]+ s \([\d,]+ events\/s\)$/m);

    const longOut = tmp.path('long');
    const long = clobot(['backtest', configPath, '--data', binaryFile, '--out', longOut]);
    expect(long.code, long.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(longOut, 'summary.json'), 'utf8')) as {
      metrics: { sharpe: string; ratios: { basis: string; returns: number; intervalMs: number }; markouts: { horizon: string; fills: number }[]; exposure: string; fillRatio: string };
    };
    const { ratios } = summary.metrics;
    expect(ratios.intervalMs).toBe(10_000);
    expect(ratios.returns).toBeGreaterThanOrEqual(30);
    expect(ratios.basis).toBe(`${ratios.returns} returns of 10s`);
    expect(summary.metrics.sharpe).toMatch(/^-?\d+\.\d{6}$/);
    const shown = new Dec(summary.metrics.sharpe).toFixed(2);
    expect(long.stdout).toMatch(new RegExp(`^sharpe +${escapeRegExp(shown)} \\(${escapeRegExp(ratios.basis)}, annualised\\)$`, 'm'));
    expect(readFileSync(join(longOut, 'report.html'), 'utf8')).toContain(`${shown} (${ratios.basis}, annualised)`);
    expect(summary.metrics.markouts.map((x) => x.horizon)).toEqual(['1s', '10s', '1m']);
    expect(summary.metrics.markouts[0]!.fills).toBeGreaterThan(0);
    expect(long.stdout).toMatch(/^mark-out 10s\s+-?[\d,]+\.\d\d \(-?\d\.\d{4} a share, \d+ fills\)$/m);
    expect(long.stdout).not.toMatch(/-0\.0+\b(?!\d)/);
  });

  it('windows the data with --from/--to and refuses a bad or empty window with exit 2', () => {
    const times = [...syntheticEvents({ seed: 11, markets: 2, depth: 8, events: 3_000, meanGapMs: 400 })].map((e) => e.tsInit);
    const from = new Date(times[1_000]!).toISOString();
    const to = String(times[2_000]!);
    const out = tmp.path('window');
    const r = clobot(['backtest', configPath, '--data', binaryFile, '--out', out, '--from', from, '--to', to]);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { data: { from: string; to: string; events: number } };
    expect(summary.data.from).toBe(from);
    expect(Date.parse(summary.data.to)).toBeLessThan(Number(to));
    expect(summary.data.events).toBe(times.filter((t) => t >= Date.parse(from) && t < Number(to)).length);
    const bad = clobot(['backtest', configPath, '--data', binaryFile, '--from', 'noon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("option '--from <time>' argument 'noon' is invalid. expected an ISO 8601 time with a zone");
    const empty = clobot(['backtest', configPath, '--data', binaryFile, '--from', to, '--to', from]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe(`clobot: --to: must be after --from (${new Date(Number(to)).toISOString()}), was ${from}\n`);
  });

  // five clobot processes one after another: 63 s at the heaviest load CI saw (as above)
  it('--set and --sweep reach any config key: the queue model says which ran; a bad key is one error naming it, exit 2', () => {
    const set = clobot(['backtest', configPath, '--data', binaryFile, '--out', tmp.path('set'), '--no-progress', '--set', 'backtest.queueModel=optimistic', '--set', 'bq.size=5']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/^queue model\s+optimistic$/m);
    const summary = JSON.parse(readFileSync(join(tmp.path('set'), 'summary.json'), 'utf8')) as { settings: { queueModel: string }; strategies: { params: { size: number } }[] };
    expect(summary.settings.queueModel).toBe('optimistic');
    expect(summary.strategies[0]!.params.size).toBe(5);

    const out = tmp.path('sweep-queue');
    const swept = clobot(['backtest', configPath, '--data', binaryFile, '--out', out, '--no-progress', '--workers', '1', '--sweep', 'backtest.queueModel=conservative,optimistic', '--set', 'bq.halfSpreadTicks=2']);
    expect(swept.code, swept.stderr).toBe(0);
    for (const model of ['conservative', 'optimistic']) {
      const point = JSON.parse(readFileSync(join(out, `backtest.queueModel=${model}`, 'summary.json'), 'utf8')) as typeof summary & { strategies: { params: { halfSpreadTicks: number } }[] };
      expect(point.settings.queueModel).toBe(model);
      expect(point.strategies[0]!.params.halfSpreadTicks).toBe(2);
    }
    const index = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as { points: { params: unknown }[]; sets: unknown };
    expect(index.sets).toEqual([{ key: 'bq.halfSpreadTicks', value: 2 }]);
    expect(index.points.map((p) => p.params).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      [{ key: 'backtest.queueModel', value: 'conservative' }],
      [{ key: 'backtest.queueModel', value: 'optimistic' }],
    ]);

    const badValue = clobot(['backtest', configPath, '--data', binaryFile, '--out', tmp.path('bad-set'), '--set', 'backtest.queueModel=lucky']);
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toBe('backtest.queueModel (--set backtest.queueModel): must be one of conservative, probabilistic, optimistic, was "lucky"\n');
    const badKey = clobot(['backtest', configPath, '--data', binaryFile, '--out', tmp.path('bad-sweep'), '--sweep', 'backtest.queueModle=conservative,optimistic']);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toBe('backtest.queueModle (--sweep backtest.queueModle): unknown key; did you mean queueModel?\n');
    const noForm = clobot(['backtest', configPath, '--data', binaryFile, '--set', 'backtest.queueModel']);
    expect(noForm.code).toBe(2);
    expect(noForm.stderr).toContain("option '--set <key=value>' argument 'backtest.queueModel' is invalid. expected <key>=<value>");
    expect(existsSync(tmp.path('bad-set')) || existsSync(tmp.path('bad-sweep'))).toBe(false);
  }, 240_000);

  it('refuses a bad sweep before running anything', () => {
    const bad = clobot(['backtest', configPath, '--data', binaryFile, '--out', tmp.path('bad'), '--sweep', 'bq.halfSpreadTicks=0,1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^strategies\[0\]\.params\.halfSpreadTicks \(--sweep bq\.halfSpreadTicks\): must be >= 1, was 0\n$/);
    expect(existsSync(tmp.path('bad'))).toBe(false);
    const unknown = clobot(['backtest', configPath, '--data', binaryFile, '--sweep', 'other.size=1']);
    expect(unknown.code).toBe(2);
    const sort = clobot(['backtest', configPath, '--data', binaryFile, '--sort', 'luck']);
    expect(sort.code).toBe(2);
  });
});

/** A literal as a regular expression (the table's column width depends on its longest row). */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
