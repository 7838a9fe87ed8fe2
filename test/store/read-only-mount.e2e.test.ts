import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src/store/run-store.ts';
import { REPO, sha256, tempDir } from './helpers.ts';

// A read-only mount made in a private user and mount namespace (`unshare -rm`): no root needed,
// nothing seen outside the child. Where the kernel refuses namespaces the test cannot be run.
const canMount = spawnSync('unshare', ['-rm', 'true']).status === 0;

const tmp = tempDir();
const src = tmp.path('src');
const ro = tmp.path('ro');

beforeAll(() => {
  mkdirSync(src);
  mkdirSync(ro);
  const store = RunStore.open(`${src}/run.db`, { create: true, runName: 'ro-demo', runId: 'c0ffee02', now: () => Date.UTC(2025, 0, 2) });
  store.setBalance(123_450_000, Date.UTC(2025, 0, 2), 'start');
  store.close();
});

function statusOnReadOnlyMount(): { status: number | null; stdout: string; stderr: string } {
  const script = `mount --bind "$1" "$2" && mount -o remount,ro,bind "$2" && touch "$2/probe" 2>/dev/null && exit 99; exec "$3" bin/clobot.mjs status "$2/run.db" --json`;
  const r = spawnSync('unshare', ['-rm', 'sh', '-c', script, 'sh', src, ro, process.execPath], { cwd: REPO, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!canMount)('clobot status on a read-only mount', () => {
  it('reads the store (SQLite cannot create the -shm file there) and leaves it as it was', () => {
    const before = sha256(`${src}/run.db`);
    const r = statusOnReadOnlyMount();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ run: { id: 'c0ffee02', name: 'ro-demo' }, account: { cash: '123.45' } });
    expect(sha256(`${src}/run.db`)).toBe(before);
  });
});
