import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { exitCodeOf } from '../../src/cli/main.ts';
import { StoreError } from '../../src/core/errors.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { StoreReader } from '../../src/store/store-reader.ts';
import { clobotProcess } from '../cli/clobot-process.ts';
import { addressOf } from '../venue/trading/helpers.ts';

/**
 * Issue 28 point 4: a store knows its key. The first live run records the address it trades
 * for; a run under another key is refused before it sends anything, with one line naming both
 * addresses and exit 2; the first key resumes it as before.
 */

const KEY_A = '0x' + '4a'.repeat(32);
const KEY_B = '0x' + '4b'.repeat(32);
const dir = mkdtempSync(join(tmpdir(), 'clobot-store-account-'));
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 6, markets: 4, events: 2, flow: { enabled: false } });
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('RunStore.open with an account', () => {
  it('records the first address, accepts it again in any case, refuses another naming both (exit 2)', () => {
    const file = join(dir, 'unit.sqlite');
    const a = addressOf(KEY_A);
    const b = addressOf(KEY_B);
    RunStore.open(file, { create: true, account: a, checkpoints: 'inline' }).close();
    RunStore.open(file, { account: a.toLowerCase(), checkpoints: 'inline' }).close();
    // a run that names no account (paper) opens it as it is
    RunStore.open(file, { checkpoints: 'inline' }).close();
    let refused: unknown;
    try {
      RunStore.open(file, { account: b, checkpoints: 'inline' }).close();
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(StoreError);
    expect((refused as StoreError).code).toBe('OTHER_ACCOUNT');
    expect((refused as StoreError).message).toBe(`${file}: this store trades for ${a}, not ${b} (the account of this run's key); run with ${a}'s key, or give another store`);
    expect(exitCodeOf(refused)).toBe(2);
    // the refusal left the store as it was: still A's, and openable by A
    const reader = StoreReader.open(file);
    try {
      expect(reader.snapshot(0).run.account).toBe(a);
    } finally {
      reader.close();
    }
    RunStore.open(file, { account: a, checkpoints: 'inline' }).close();
  });
});

describe('clobot run twice on one store with two keys', () => {
  it('the second key is refused in one line naming both addresses, exit 2; the first key resumes it', async () => {
    const store = join(dir, 'live.sqlite');
    const config = join(dir, 'live.yaml');
    writeFileSync(
      config,
      stringify({
        mode: 'live',
        account: { signatureType: 0 },
        data: { transport: 'poll', pollIntervalMs: 250, markets: { filter: { maxCount: 1 } } },
        strategies: [{ id: 'mm', module: join(process.cwd(), 'strategies/market-maker.ts') }],
        logging: { level: 'warn', file: join(dir, 'live.log') },
      }),
    );
    const args = ['run', config, '--venue', sandbox.url, '--store', store, '--no-status', '--duration', '2s'];
    const first = await clobotProcess(args, { CLOBOT_PRIVATE_KEY: KEY_A });
    expect(first.status, first.stderr).toBe(0);
    const second = await clobotProcess(args, { CLOBOT_PRIVATE_KEY: KEY_B });
    const a = addressOf(KEY_A);
    const b = addressOf(KEY_B);
    expect([second.status, second.stdout]).toEqual([2, '']);
    const lines = second.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`this store trades for ${a}, not ${b}`);
    const again = await clobotProcess(args, { CLOBOT_PRIVATE_KEY: KEY_A });
    expect(again.status, again.stderr).toBe(0);
    const status = await clobotProcess(['status', store]);
    expect(status.stdout).toContain(`  trades for ${a}\n`);
  }, 90_000);
});
