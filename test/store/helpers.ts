import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { StoreError } from '../../src/core/errors.ts';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** A throwaway directory for store files, removed after the test file. */
export function tempDir(): { dir: string; path: (name: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'clobot-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, path: (name) => join(dir, name) };
}

/** The StoreError `fn` throws (anything else thrown goes on; nothing thrown fails). */
export function storeError(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StoreError) return err;
    throw err;
  }
  throw new Error('expected a StoreError, nothing was thrown');
}

export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

export * from './fixtures.ts';

/** Runs the real CLI: `node bin/clobot.mjs ...`. */
export function clobot(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/clobot.mjs', ...args], { cwd: REPO, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A child process running `test/store/store-child.ts`, its stdout read line by line. */
export interface Child {
  readonly proc: ChildProcess;
  readonly lines: string[];
  /** Resolves with the first line (seen so far or later) that `match` accepts. */
  waitFor(match: (line: string) => boolean): Promise<string>;
  /** Resolves when the process has exited (and was reaped). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnChild(args: string[]): Child {
  const proc = spawn(process.execPath, ['bin/run-ts.mjs', 'test/store/store-child.ts', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: { match: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  createInterface({ input: proc.stdout }).on('line', (line) => {
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.match(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    proc,
    lines,
    exited,
    waitFor(match) {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ match, resolve });
        void exited.then(({ code, signal }) => reject(new Error(`child exited (${code ?? signal}) before the expected line; stderr: ${stderr.slice(0, 2000)}`)));
      });
    },
  };
}
