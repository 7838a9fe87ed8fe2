import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/clobot.mjs', import.meta.url));

export interface ClobotResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The real CLI in a child process, without blocking this one (a sandbox started by the test
 * answers from this process). CLOBOT_DEBUG is off unless `env` sets it.
 */
export function clobotProcess(args: readonly string[], env: Record<string, string> = {}): Promise<ClobotResult> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, CLOBOT_DEBUG: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}
