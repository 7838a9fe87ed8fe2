import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { MarketEvent } from '../../src/core/events.ts';
import { readRecordingSync } from '../../src/data/recording/reader.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { firstLine } from '../child-lines.ts';
import { tempDir } from '../data/recording/helpers.ts';

/** `clobot record` as a user runs it: a real process against a real sandbox, stopped by a signal or a duration. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const tmp = tempDir();
afterAll(() => tmp.done());

interface Run {
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  stdout: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function record(args: string[]): Run {
  const child = spawn(process.execPath, ['bin/clobot.mjs', 'record', ...args], { cwd: ROOT });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, stderr: () => err, stdout: () => out, exit };
}

/** Events in tsInit order, every token one of the header's (the reader checks it), books sorted. */
function checkRecording(path: string): { events: MarketEvent[]; header: ReturnType<typeof readRecordingSync>['header'] } {
  const { header, events } = readRecordingSync(path);
  for (let i = 1; i < events.length; i++) expect(events[i]!.tsInit).toBeGreaterThanOrEqual(events[i - 1]!.tsInit);
  for (const e of events) {
    if (e.type !== 'book') continue;
    for (let i = 1; i < e.book.bids.length; i++) expect(e.book.bids[i]!.price).toBeLessThan(e.book.bids[i - 1]!.price);
    for (let i = 1; i < e.book.asks.length; i++) expect(e.book.asks[i]!.price).toBeGreaterThan(e.book.asks[i - 1]!.price);
  }
  return { header, events };
}

describe('clobot record', () => {
  it('records from the embedded sandbox until SIGINT, leaving a complete gzip recording (exit 0)', async () => {
    const config = tmp.path('embedded.yaml');
    writeFileSync(
      config,
      ['mode: paper', 'venue:', '  embedded: { seed: 4, markets: 6, events: 2, flow: { enabled: true, intensity: 2 } }', 'data:', '  pollIntervalMs: 100', '  markets:', '    filter: { maxCount: 3 }', ''].join('\n'),
    );
    const out = tmp.path('embedded.jsonl.gz');
    const r = record([config, '--out', out, '--transport', 'poll']);
    try {
      await firstLine(r.child, r.stderr, r.child.stderr);
      expect(r.stderr()).toMatch(/^recording 3 markets \(6 tokens\) from http:\/\/127\.0\.0\.1:\d+ over poll to .*embedded\.jsonl\.gz\n/);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      r.child.kill('SIGINT');
      expect(await r.exit).toEqual({ code: 0, signal: null });
    } finally {
      r.child.kill('SIGKILL');
    }
    expect(r.stderr()).toMatch(/\nrecorded \d+ events \(\d+ books, \d+ prices, 0 trades, 0 tick changes\) from 3 markets in 00:00:\d\d: .*embedded\.jsonl\.gz \([\d.]+ (B|KiB)\)\n$/);
    const { header, events } = checkRecording(out);
    expect(header.markets).toHaveLength(3);
    expect(header.source).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(events.filter((e) => e.type === 'book').length).toBeGreaterThan(0);
    const recorded = Number(/recorded (\d+) events/.exec(r.stderr())![1]);
    expect(events).toHaveLength(recorded);
  });

  it('records an external venue given by --venue for --duration, in the binary form (exit 0)', async () => {
    const sandbox = await startSandbox({ seed: 9, markets: 5, events: 2, flow: { enabled: true, intensity: 2 } });
    try {
      const config = tmp.path('remote.yaml');
      writeFileSync(config, ['mode: paper', 'venue:', '  baseUrl: http://127.0.0.1:9', 'data:', '  pollIntervalMs: 100', '  markets:', '    filter: { maxCount: 2 }', ''].join('\n'));
      const out = tmp.path('remote.clbr');
      const r = record([config, '--out', out, '--venue', sandbox.url, '--duration', '3s', '--to-binary', '--transport', 'poll']);
      try {
        expect(await r.exit).toEqual({ code: 0, signal: null });
      } finally {
        r.child.kill('SIGKILL');
      }
      expect(r.stderr()).toContain(`recording 2 markets (4 tokens) from ${sandbox.url} over poll`);
      const { header, events } = checkRecording(out);
      expect(readRecordingSync(out).form).toBe('binary');
      expect(header.source).toBe(sandbox.url);
      const conditions = new Set(sandbox.world.markets.map((m) => m.conditionId));
      for (const m of header.markets) expect(conditions.has(m.conditionId)).toBe(true);
      expect(events.some((e) => e.type === 'book')).toBe(true);
      expect(events.some((e) => e.type === 'prices')).toBe(true);
    } finally {
      await sandbox.close();
    }
  });

  it('refuses a config without a market selection with one line and exit code 2', async () => {
    const config = tmp.path('none.yaml');
    writeFileSync(config, ['mode: paper', 'venue:', '  baseUrl: http://127.0.0.1:9', ''].join('\n'));
    const r = record([config, '--out', tmp.path('none.jsonl')]);
    expect((await r.exit).code).toBe(2);
    expect(r.stderr().trim().split('\n')).toEqual([`data.markets (${config}): no market selection to record: set data.markets`]);
  });
});
