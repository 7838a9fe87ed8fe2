import { describe, expect, it } from 'vitest';
import { bindingRefusal, isLoopback, tokenMatches } from '../../src/control/access.ts';
import { clobotProcess } from '../cli/clobot-process.ts';

/**
 * Issue 23 point 2: the control server binds loopback unless told otherwise, and then only with a
 * token. `clobot run --control-host <not loopback>` without CLOBOT_CONTROL_TOKEN (or with a short
 * one) refuses to start: one line, exit 2, before anything runs; `clobot dashboard` the same.
 */

const NO_TOKEN = { CLOBOT_CONTROL_TOKEN: '' };

describe('control server binding', () => {
  it('clobot run: a non-loopback address without a token exits 2 with one line, starting nothing', async () => {
    for (const host of ['0.0.0.0', '192.168.1.10', '::']) {
      const r = await clobotProcess(['run', 'config/default.yaml', '--no-status', '--control-host', host], NO_TOKEN);
      expect(r.status, r.stderr).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`--control-host ${host} is not a loopback address: set CLOBOT_CONTROL_TOKEN`);
      // nothing started: no log line of a run
      expect(r.stdout).not.toContain('run starting');
    }
  });

  it('a token shorter than 16 characters is refused the same way; clobot dashboard refuses a bare non-loopback address', async () => {
    const short = await clobotProcess(['run', 'config/default.yaml', '--no-status', '--control'], { CLOBOT_CONTROL_TOKEN: 'short' });
    expect(short.status).toBe(2);
    expect(short.stderr.trim()).toBe('clobot: CLOBOT_CONTROL_TOKEN is 5 character(s): a control token has at least 16 (e.g. openssl rand -hex 32)');
    expect(short.stderr).not.toContain('short\n');
    const dash = await clobotProcess(['dashboard', 'no-such.sqlite', '--host', '0.0.0.0'], NO_TOKEN);
    expect(dash.status).toBe(2);
    expect(dash.stderr).toContain('--host 0.0.0.0 is not a loopback address');
  });

  it('loopback names and the token compare', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.1', 'example.com', '128.0.0.1']) expect(isLoopback(h), h).toBe(false);
    expect(bindingRefusal('127.0.0.1', undefined)).toBeUndefined();
    expect(bindingRefusal('0.0.0.0', 'x'.repeat(16))).toBeUndefined();
    expect(tokenMatches('x'.repeat(20), 'x'.repeat(20))).toBe(true);
    expect(tokenMatches('x'.repeat(20), 'x'.repeat(19))).toBe(false);
    expect(tokenMatches('x'.repeat(20), undefined)).toBe(false);
  });
});

describe('clobot run --control', () => {
  it('serves the API on the port it names on stderr (the token asked), with /metrics beside it, and closes with the run', async () => {
    const { spawn } = await import('node:child_process');
    const token = 'process-test-token-0123456789abcdef';
    const child = spawn(process.execPath, ['bin/clobot.mjs', 'run', 'config/default.yaml', '--no-status', '--control-port', '0', '--duration', '60s'], {
      env: { ...process.env, CLOBOT_CONTROL_TOKEN: token, CLOBOT_DEBUG: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    try {
      const deadline = Date.now() + 60_000;
      let url: string | undefined;
      while (url === undefined && Date.now() < deadline) {
        url = /control API and dashboard on (http:\/\/127\.0\.0\.1:\d+)\//.exec(stderr)?.[1];
        if (url === undefined) await new Promise((r) => setTimeout(r, 100));
      }
      expect(url, stderr).toBeDefined();
      expect(stderr).not.toContain(token);
      expect((await fetch(`${url}/api/state`)).status).toBe(401);
      let state: Response | undefined;
      while (Date.now() < deadline) {
        state = await fetch(`${url}/api/state`, { headers: { authorization: `Bearer ${token}` } });
        if (state.status !== 503) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(state?.status).toBe(200);
      const body = (await state!.json()) as { source: string; rateBudget: { windows: { name: string; share: number }[] } | null; rewards: unknown[] };
      expect(body.source).toBe('live');
      // the run's own rate budget (the venue client's): the windows its start drew on, each with its share
      expect(body.rateBudget?.windows.map((w) => w.name)).toContain('GET /markets');
      for (const w of body.rateBudget!.windows) expect(w.share).toBeGreaterThanOrEqual(0);
      expect(Array.isArray(body.rewards)).toBe(true);
      const metrics = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('clobot_build_info');
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      await expect(fetch(`${url}/api/state`)).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});
