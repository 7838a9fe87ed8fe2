import { afterEach, describe, expect, it } from 'vitest';
import type { HealthState } from '../../../src/engine/health.ts';
import { DEFAULT_MM, startE2E, waitFor, type E2E } from './harness.ts';

/**
 * Issue 23 point 1 on a live run against the sandbox: the run reads `unknown` until its heartbeat
 * is acknowledged and its data arrived, then `normal/allowed`; a halt command makes it
 * `halted/blocked` with the halt as its reason, the resume `normal/allowed` again; every change is
 * a HealthChanged event on the bus; the stop leaves it `halted`.
 */

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

const healthEvents = (e: E2E): HealthState[] => e.events.flatMap((ev) => (ev.type === 'HealthChanged' ? [ev.state] : []));

describe('e2e: the health of a live run', () => {
  it('unknown until known, normal while trading, halted/blocked on a halt, normal/allowed on the resume', async () => {
    run = await startE2E({ strategies: [DEFAULT_MM] });
    const e = run;
    const engine = e.session.engine;
    await waitFor('a normal run', () => engine.health().health === 'normal', 20_000);
    expect(engine.health()).toMatchObject({ health: 'normal', permission: 'allowed', reasons: [] });
    // before that it was never normal: unknown (not started, no data, heartbeat pending)
    const before = healthEvents(e);
    expect(before[0]?.health).toBe('unknown');
    expect(before.slice(0, -1).every((s) => s.health === 'unknown')).toBe(true);

    expect(engine.command({ type: 'halt', name: 'manual', reason: 'e2e drill' }).ok).toBe(true);
    expect(engine.health()).toMatchObject({ health: 'halted', permission: 'blocked', reasons: [{ kind: 'halt', name: 'manual', reason: 'e2e drill' }] });
    expect(healthEvents(e).at(-1)).toMatchObject({ health: 'halted', permission: 'blocked' });

    expect(engine.command({ type: 'resume', name: 'manual' }).ok).toBe(true);
    expect(engine.health()).toMatchObject({ health: 'normal', permission: 'allowed', reasons: [] });
    expect(healthEvents(e).at(-1)).toMatchObject({ health: 'normal', permission: 'allowed' });

    await e.stop();
    expect(engine.health()).toMatchObject({ health: 'halted', permission: 'blocked', reasons: [{ kind: 'stopped' }] });
  }, 60_000);
});
