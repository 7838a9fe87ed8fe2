import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticEvents, syntheticHeader } from '../../src/backtest/synthetic-recording.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';
import { TempDir } from './helpers.ts';

/** Ctrl-C during a backtest stops it, says so in one line, and writes the partial summary and report. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STRATEGY_API = fileURLToPath(new URL('../../src/strategy/index.ts', import.meta.url));
const tmp = new TempDir();
afterAll(() => tmp.remove());

// A strategy that says on stderr when it has seen 100 books: the test's cue to press Ctrl-C. From
// then on each book takes a quarter of a millisecond until the test has pressed it (the file named
// by CUE_PRESSED, written once the signal is sent): at full speed the rest of the data replays in
// under a second, and on a loaded machine the test can take longer than that to hear the cue and
// send the signal (CI once saw every event replayed before it landed); paused, the rest would take
// a minute and a half. Pressed, the replay goes on at full speed to the end of its batch, where the
// signal is taken.
const STRATEGY = `import { existsSync } from 'node:fs';
import { defineStrategy } from ${JSON.stringify(STRATEGY_API)};
let books = 0;
let pressed = false;
const pause = new Int32Array(new SharedArrayBuffer(4));
export default defineStrategy({
  name: 'cue',
  onBook({ ctx }) {
    if (++books === 100) {
      ctx.log.info('cue: 100 books seen');
      process.stderr.write('cue: replaying\\n');
    }
    if (books > 100 && !pressed) {
      pressed = existsSync(process.env.CUE_PRESSED ?? '');
      if (!pressed) Atomics.wait(pause, 0, 0, 0.25);
    }
    return undefined;
  },
});
`;

/** The environment of a backtest of the cue strategy, and `sent`, to call once Ctrl-C was sent (the strategy then stops pausing). */
function cue(name: string): { env: NodeJS.ProcessEnv; sent: () => void } {
  const file = tmp.path(`${name}.pressed`);
  return { env: { ...process.env, CLOBOT_DEBUG: '', CUE_PRESSED: file }, sent: () => writeFileSync(file, '') };
}

describe('Ctrl-C during a backtest', async () => {
  tmp.write('cue.ts', STRATEGY);
  const config = tmp.write('cue.yaml', `mode: backtest\nname: cue\ndata:\n  markets: { filter: { maxCount: 2 } }\nstrategies:\n  - id: cue\n    module: ./cue.ts\n`);
  const data = tmp.path('long.bin');
  const options = { seed: 5, markets: 2, depth: 8, events: 400_000, meanGapMs: 400 };
  const writer = createRecordingWriter(data, syntheticHeader(options), { form: 'binary' });
  for (const event of syntheticEvents(options)) writer.write(event);
  await writer.close();

  it('stops at the event reached, says so in one line, writes the partial summary and report, exit 130', async () => {
    const out = tmp.path('out');
    const key = cue('one');
    const child = spawn(process.execPath, ['bin/clobot.mjs', 'backtest', config, '--data', data, '--out', out, '--no-progress'], { cwd: ROOT, env: key.env });
    let stderr = '';
    let stdout = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!sent && stderr.includes('cue: replaying')) {
        sent = child.kill('SIGINT');
        key.sent();
      }
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, stderr).toBe(130);
    // one line when it stops, and the exit's own line naming where the partial results are
    expect(stderr).toContain('\ninterrupted: stopping the backtest at the event reached; writing the partial summary and report\n');
    expect(stderr.trimEnd().split('\n').at(-1)).toMatch(/interrupted: partial results \(to .*\) in /);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { data: { partial: boolean; events: number } };
    expect(summary.data.partial).toBe(true);
    expect(summary.data.events).toBeGreaterThan(0);
    expect(summary.data.events).toBeLessThan(options.events);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('(partial: stopped before the end of the data)');
    expect(stdout).toContain(`wrote ${join(out, 'summary.json')}`);
    // ctx.log goes to backtest.log in the output folder by default
    expect(readFileSync(join(out, 'backtest.log'), 'utf8')).toContain('cue: 100 books seen');
  });

  it('a sweep: the running points stop at the event reached (partial), the others are not run; sweep.json says so, exit 130', async () => {
    const out = tmp.path('sweep');
    const args = ['bin/clobot.mjs', 'backtest', config, '--data', data, '--out', out, '--no-progress', '--workers', '2', '--sweep', 'backtest.latencyMs=10,20,30,40,50,60'];
    const key = cue('sweep');
    const child = spawn(process.execPath, args, { cwd: ROOT, env: key.env });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!sent && stderr.includes('cue: replaying')) {
        sent = child.kill('SIGINT');
        key.sent();
      }
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, stderr).toBe(130);
    expect(stderr).toContain('\ninterrupted: stopping the sweep (running points at the event reached); writing the finished and partial points\n');
    const index = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as { partial: boolean; notRun: string[]; points: { label: string; partial: boolean }[] };
    expect(index.partial).toBe(true);
    expect(index.points.length).toBeGreaterThanOrEqual(1);
    expect(index.points.length + index.notRun.length).toBe(6);
    expect(index.notRun.length).toBeGreaterThanOrEqual(1);
    for (const p of index.points.filter((x) => x.partial)) {
      const summary = JSON.parse(readFileSync(join(out, p.label, 'summary.json'), 'utf8')) as { data: { partial: boolean } };
      expect(summary.data.partial).toBe(true);
      expect(readFileSync(join(out, p.label, 'report.html'), 'utf8')).toContain('(partial: stopped before the end of the data)');
    }
    expect(stderr.trimEnd().split('\n').at(-1)).toMatch(/interrupted: \d+ of 6 points finished, \d+ partial, \d+ not run; results in /);
  });

  it('Ctrl-C in a terminal reaches the launcher and the replaying process (one process group): taken once, partial results, exit 130', async () => {
    if (process.platform === 'win32') return; // no process groups to signal
    const out = tmp.path('group');
    // its own process group, as a terminal's foreground job; the signal goes to the whole group
    const key = cue('group');
    const child = spawn(process.execPath, ['bin/clobot.mjs', 'backtest', config, '--data', data, '--out', out, '--no-progress'], { cwd: ROOT, env: key.env, detached: true });
    let stderr = '';
    let sent = false;
    child.stdout.on('data', () => undefined);
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!sent && stderr.includes('cue: replaying')) {
        process.kill(-child.pid!, 'SIGINT');
        sent = true;
        key.sent();
      }
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, stderr).toBe(130);
    expect(stderr.split('\ninterrupted: stopping the backtest').length, stderr).toBe(2);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { data: { partial: boolean } };
    expect(summary.data.partial).toBe(true);
  });
});
