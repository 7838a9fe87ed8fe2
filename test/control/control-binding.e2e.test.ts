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
