import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startRunSession } from '../../src/app/run-session.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/core/log.ts';
import { DEFAULT_MM, waitFor } from '../engine/e2e/harness.ts';
import { logLinesOnceSeen } from '../log-file.ts';

/**
 * The run log while trading is halted: the market maker asks for its quotes on every book, and
 * every order is denied TRADING_HALTED for one reason. Each denial was a log line (233 in 15 s
 * of a run its kill switch halted, twice that with the strategy's own line); now the first is
 * logged, the repeats are one `orders denied while halted` line with their number when trading
 * resumes, and the lines still account for every denial the summary counts.
 */

const dir = mkdtempSync(join(tmpdir(), 'clobot-halt-denials-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('denials while halted in the run log', () => {
  it('logs the first, and the repeats as one count when trading resumes', async () => {
    const path = join(dir, 'live.yaml');
    const logFile = join(dir, 'run.log');
    writeFileSync(
      path,
      stringify({
        mode: 'live',
        venue: { embedded: { seed: 1, markets: 6, events: 2, flow: { enabled: true, intensity: 4 } } },
        data: { pollIntervalMs: 200, markets: { filter: { active: true, acceptingOrders: true, maxCount: 2 } } },
        strategies: [{ id: DEFAULT_MM.id, module: DEFAULT_MM.module, params: DEFAULT_MM.params }],
        logging: { level: 'info', file: logFile },
      }),
    );
    const logger = createLogger({ level: 'info', file: logFile });
    const session = await startRunSession({ config: loadConfig(path, {}, { cwd: dir }), logger });
    const engine = session.engine;
    const halted = () => engine.summary().ordersDenied['TRADING_HALTED'] ?? 0;
    try {
      await waitFor('the market maker to quote', () => engine.summary().ordersAccepted > 0, 30_000);
      engine.command({ type: 'halt', name: 'manual', reason: 'test halt' });
      await waitFor('five denials while halted', () => halted() >= 5, 30_000);
      engine.command({ type: 'resume', name: 'manual' });
    } finally {
      await session.stop();
      logger.flush();
    }
    const denials = halted();
    // the count is the run's last line of the kind: the lines before it are in the file once it is
    const lines = await logLinesOnceSeen(logFile, (all) => all.some((l) => l['msg'] === 'orders denied while halted'));
    const logged = lines.filter((l) => l['msg'] === 'order denied by risk' && l['code'] === 'TRADING_HALTED');
    const counted = lines.filter((l) => l['msg'] === 'orders denied while halted');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ strategy: 'mm', reason: expect.stringContaining('test halt') as unknown });
    expect(counted).toHaveLength(1);
    expect(counted[0]).toMatchObject({ strategy: 'mm', code: 'TRADING_HALTED', more: denials - 1 });
  }, 90_000);
});
