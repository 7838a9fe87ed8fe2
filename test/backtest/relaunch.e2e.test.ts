import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticEvents, syntheticHeader } from '../../src/backtest/synthetic-recording.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';
import { clobotProcess } from '../cli/clobot-process.ts';
import { TempDir } from './helpers.ts';

/**
 * `clobot backtest` runs in a node started with heap flags that keep less garbage (bin/relaunch.mjs):
 * the replay sees them, a flag the user gives is kept, and the exit code comes back.
 * (Signals passed on: test/backtest/interrupt.e2e.test.ts.)
 */

const BIN = fileURLToPath(new URL('../../bin/clobot.mjs', import.meta.url));
const STRATEGY_API = fileURLToPath(new URL('../../src/strategy/index.ts', import.meta.url));
const tmp = new TempDir();
afterAll(() => tmp.remove());

// a strategy that says, on its first book, the node flags of the process replaying
const STRATEGY = `import { defineStrategy } from ${JSON.stringify(STRATEGY_API)};
let said = false;
export default defineStrategy({
  name: 'flags',
  onBook() {
    if (!said) process.stderr.write('flags: ' + JSON.stringify({ execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS ?? '', pid: process.pid }) + '\\n');
    said = true;
    return undefined;
  },
});
`;

describe('clobot backtest relaunches itself with its node flags', async () => {
  tmp.write('flags.ts', STRATEGY);
  const config = tmp.write('flags.yaml', `mode: backtest\nname: flags\ndata:\n  markets: { filter: { maxCount: 1 } }\nstrategies:\n  - id: f\n    module: ./flags.ts\n`);
  const data = tmp.path('short.bin');
  const options = { seed: 3, markets: 1, depth: 4, events: 200, meanGapMs: 400 };
  const writer = createRecordingWriter(data, syntheticHeader(options), { form: 'binary' });
  for (const event of syntheticEvents(options)) writer.write(event);
  await writer.close();
  const flagsSeen = (stderr: string): { execArgv: string[]; nodeOptions: string } => {
    const line = stderr.split('\n').find((l) => l.startsWith('flags: '));
    expect(line, stderr).toBeDefined();
    return JSON.parse(line!.slice('flags: '.length)) as { execArgv: string[]; nodeOptions: string };
  };

  it('the replaying process runs with --max-semi-space-size=4 --heap-growing-percent=50', async () => {
    const r = await clobotProcess(['backtest', config, '--data', data, '--out', tmp.path('out1'), '--no-progress']);
    expect(r.status, r.stderr).toBe(0);
    expect(flagsSeen(r.stderr).execArgv).toEqual(['--max-semi-space-size=4', '--heap-growing-percent=50']);
    expect(r.stdout).toMatch(/replayed [\d,]+ events/);
  });

  it("the user's own --max-semi-space-size (NODE_OPTIONS) is kept: only the other flag is added", async () => {
    const r = await clobotProcess(['backtest', config, '--data', data, '--out', tmp.path('out2'), '--no-progress'], { NODE_OPTIONS: '--max-semi-space-size=8' });
    expect(r.status, r.stderr).toBe(0);
    const seen = flagsSeen(r.stderr);
    expect(seen.execArgv).toEqual(['--heap-growing-percent=50']);
    expect(seen.nodeOptions).toBe('--max-semi-space-size=8');
  });

  it('both flags given on node\'s command line: kept, and the command runs in that process (no relaunch)', async () => {
    const args = ['--max-semi-space-size=2', '--heap-growing-percent=40', BIN, 'backtest', config, '--data', data, '--out', tmp.path('out3'), '--no-progress'];
    const child = spawn(process.execPath, args, { env: { ...process.env, CLOBOT_DEBUG: '' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', () => undefined);
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, stderr).toBe(0);
    expect(flagsSeen(stderr).execArgv).toEqual(['--max-semi-space-size=2', '--heap-growing-percent=40']);
    // the strategy ran in the process spawned here: its pid is the one that said so
    expect(stderr).toContain(`"pid":${child.pid}`);
  });

  it("the relaunched command's exit code and error are the command's", async () => {
    const r = await clobotProcess(['backtest', config, '--data', data, '--from', '2024-01-02', '--to', '2024-01-01', '--no-progress']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--to: must be after --from');
  });
});
