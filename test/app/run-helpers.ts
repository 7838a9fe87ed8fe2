import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.ts';

/** Waits (polling every 50 ms) until `check` holds; throws naming `what` after `ms`. */
export async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A sandbox on a free loopback port and a temp folder, both removed by `close`. */
export interface SandboxRig {
  readonly sandbox: RunningSandbox;
  readonly dir: string;
  /** POSTs JSON to an admin route; answers the parsed body, throwing on a non-200. */
  admin(path: string, body: unknown): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function sandboxRig(options: SandboxOptions, prefix: string): Promise<SandboxRig> {
  const sandbox = await startSandbox({ port: 0, ...options });
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    sandbox,
    dir,
    async admin(path, body) {
      const res = await fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    },
    async close() {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
