import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { firstLine } from '../../child-lines.ts';
import { call } from '../helpers.ts';

/** `clobot sandbox --no-flow` / `--flow-intensity <x>` / `--flow-actions-per-second <n>` as a user runs them. */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

function run(args: string[]): { child: ChildProcess; out: () => string; err: () => string; kill: () => void; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['bin/clobot.mjs', ...args], { cwd: ROOT });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, kill: () => child.kill('SIGTERM'), exit };
}

async function url(r: ReturnType<typeof run>): Promise<string> {
  const line = await firstLine(r.child, r.out);
  expect(line, r.err()).toMatch(/^listening on /);
  return line.slice('listening on '.length);
}

describe('clobot sandbox flow flags', () => {
  it('runs the flow by default at the given intensity, and not at all with --no-flow', async () => {
    const a = run(['sandbox', '--port', '0', '--markets', '10', '--events', '3', '--flow-intensity', '2.5']);
    const b = run(['sandbox', '--port', '0', '--markets', '10', '--events', '3', '--no-flow']);
    try {
      expect((await call(`${await url(a)}/admin/flow`)).body).toMatchObject({ enabled: true, running: true, intensity: 2.5 });
      expect((await call(`${await url(b)}/admin/flow`)).body).toEqual({ enabled: false });
    } finally {
      a.kill();
      b.kill();
    }
    expect(await a.exit).toBe(0);
    expect(await b.exit).toBe(0);
  });

  it('--near-end-episodes plans near-end episodes at start (--near-end-within-ms, --near-end-breakdown-share); GET /admin/near-end shows them', async () => {
    const r = run(['sandbox', '--port', '0', '--markets', '30', '--events', '8', '--near-end-episodes', '60', '--near-end-within-ms', '900000', '--near-end-breakdown-share', '1']);
    try {
      const stats = (await call(`${await url(r)}/admin/near-end`)).body as { ratePerHour: number; breakdownShare: number; planned: number; episodes: { collapsesAt: number | null; state: string }[] };
      expect(stats).toMatchObject({ ratePerHour: 60, breakdownShare: 1 });
      expect(stats.planned).toBeGreaterThan(0);
      expect(stats.episodes.every((e) => e.collapsesAt !== null && ['planned', 'drifting'].includes(e.state))).toBe(true);
    } finally {
      r.kill();
    }
    expect(await r.exit).toBe(0);
  });

  it('--flow-actions-per-second sets the flow budget; POST /admin/flow changes it while running and refuses a bad body', async () => {
    const a = run(['sandbox', '--port', '0', '--markets', '10', '--events', '3', '--flow-actions-per-second', '1200']);
    const b = run(['sandbox', '--port', '0', '--markets', '10', '--events', '3', '--no-flow']);
    try {
      const base = await url(a);
      expect((await call(`${base}/admin/flow`)).body).toMatchObject({ enabled: true, running: true, intensity: 1, actionsPerSecond: 1200 });
      const changed = await call(`${base}/admin/flow`, { json: { actionsPerSecond: 50 } });
      expect([changed.status, changed.body.actionsPerSecond]).toEqual([200, 50]);
      expect((await call(`${base}/admin/flow`)).body).toMatchObject({ actionsPerSecond: 50 });
      for (const [json, message] of [
        [{ actionsPerSecond: 0 }, /actionsPerSecond must be a whole number in 1\.\.100000, was 0/],
        [{ actionsPerSecond: 2.5 }, /was 2\.5/],
        [{ rate: 5 }, /unknown key rate/],
        [[1], /must be a JSON object/],
      ] as const) {
        const bad = await call(`${base}/admin/flow`, { json });
        expect(bad.status, JSON.stringify(json)).toBe(400);
        expect(bad.body.error, JSON.stringify(json)).toMatch(message);
      }
      const off = await call(`${await url(b)}/admin/flow`, { json: { actionsPerSecond: 5 } });
      expect([off.status, off.body.error]).toEqual([409, 'admin/flow: the synthetic flow is off (--no-flow)']);
    } finally {
      a.kill();
      b.kill();
    }
    expect(await a.exit).toBe(0);
    expect(await b.exit).toBe(0);
  });

  it('refuses an intensity out of range', async () => {
    const bad = ['0', '-1', '101', 'fast'];
    const runs = bad.map((x) => run(['sandbox', '--port', '0', '--flow-intensity', x]));
    const codes = await Promise.all(runs.map((r) => r.exit));
    runs.forEach((r, i) => {
      expect(codes[i], bad[i]).not.toBe(0);
      expect(r.err(), bad[i]).toMatch(/flow-intensity/);
    });
  });
});
