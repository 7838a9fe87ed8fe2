import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.ts';

// A full disk made in a private user and mount namespace (`unshare -rm`): a 256 KB tmpfs filled
// to the last byte, then a new store created on it. Where the kernel refuses namespaces the test
// cannot be run.
const canMount = spawnSync('unshare', ['-rm', 'true']).status === 0;

describe.skipIf(!canMount)('a new store on a full disk', () => {
  it('is one line saying the disk is full, exit 2, and leaves no file behind', () => {
    const script = [
      'd=$(mktemp -d)',
      'mount -t tmpfs -o size=256k tmpfs "$d" || exit 98',
      'dd if=/dev/zero of="$d/filler" bs=4k 2>/dev/null',
      '"$1" bin/run-ts.mjs test/store/create-child.ts "$d/new.db"',
      'ls -A "$d" | tr "\\n" " "',
      'umount "$d" && rmdir "$d"',
    ].join('\n');
    const r = spawnSync('unshare', ['-rm', 'sh', '-c', script, 'sh', process.execPath], { cwd: REPO, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const [line, listing] = r.stdout.trim().split('\n');
    const result = JSON.parse(line ?? '');
    expect(result.code).toBe('DISK_FULL');
    expect(result.exit).toBe(2);
    expect(result.message).toMatch(/new\.db: cannot create the store: no space left on the disk/);
    expect(result.message.split('\n')).toHaveLength(1);
    expect(listing?.trim()).toBe('filler');
  });
});
