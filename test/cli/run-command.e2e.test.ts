import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `clobot run` and `clobot validate` as a user runs them: a bad config is refused by both with
 * the same lines (key, file:line) and exit 2, and `run` refuses it before it starts anything.
 */
const dir = mkdtempSync(join(tmpdir(), 'clobot-run-cli-'));
const MARKET_MAKER = resolve('strategies/market-maker.ts');
let venue: Server;
let venueUrl: string;
let venueRequests = 0;

beforeAll(async () => {
  // a venue that counts every request: a refused config must not reach it
  venue = createServer((_req, res) => {
    venueRequests++;
    res.writeHead(503).end();
  });
  venue.listen(0, '127.0.0.1');
  await once(venue, 'listening');
  const address = venue.address();
  venueUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});

afterAll(() => {
  venue?.close();
  rmSync(dir, { recursive: true, force: true });
});

function clobot(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/clobot.mjs', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A paper config against the counting venue with one strategy whose lines are `strategy`. */
function paperConfig(name: string, strategy: string[]): string {
  const path = join(dir, name);
  const text = ['mode: paper', 'venue:', `  baseUrl: ${venueUrl}`, 'data:', '  markets: { slugs: [m] }', 'strategies:', ...strategy, ''].join('\n');
  writeFileSync(path, text);
  return path;
}

describe('a bad config: validate and run refuse it alike, run before starting anything', () => {
  it('params the strategy schema refuses, an unknown param and a size beyond Micros: each with file:line, exit 2', () => {
    const path = paperConfig('params.yaml', [
      '  - id: mm',
      `    module: ${MARKET_MAKER}`,
      '    params:',
      '      size: 1e300',
      '      improveTicks: -1',
      '      minSpreadTick: 2',
    ]);
    const expected = [
      `strategies[0].params.size (${path}:10): must be <= 9007199254.74099, was 1e+300`,
      `strategies[0].params.improveTicks (${path}:11): must be >= 0, was -1`,
      `strategies[0].params.minSpreadTick (${path}:12): unknown key; did you mean minSpreadTicks?`,
      '',
    ].join('\n');
    const validate = clobot(['validate', path]);
    expect([validate.status, validate.stdout, validate.stderr]).toEqual([2, '', expected]);
    const run = clobot(['run', path, '--no-status', '--duration', '1s']);
    expect([run.status, run.stdout, run.stderr]).toEqual([2, '', expected]);
    expect(venueRequests).toBe(0);
  }, 60_000);

  // a case a test, each two clobot processes (the four in one test, eight processes, took 71 s of
  // its 120 at the heaviest load CI saw: each process loads tsx, seconds under load)
  it.each([
    { what: '/etc/passwd', module: '/etc/passwd', message: 'must be a .ts, .mts, .js or .mjs file, but /etc/passwd is not' },
    { what: 'a folder', module: './folder.ts', message: `must be a .ts, .mts, .js or .mjs file, but ${dir}/folder.ts is a folder` },
    { what: 'package.json', module: resolve('package.json'), message: `must be a .ts, .mts, .js or .mjs file, but ${resolve('package.json')} is not` },
    { what: 'a missing file', module: './gone.ts', message: `module file not found (looked at ${dir}/gone.ts)` },
  ])('a module path that is not a strategy module: $what', ({ what, module, message }) => {
    mkdirSync(join(dir, 'folder.ts'), { recursive: true });
    const path = paperConfig(`module-${what.replace(/\W+/g, '-')}.yaml`, ['  - id: s', `    module: ${module}`]);
    const expected = `strategies[0].module (${path}:8): ${message}\n`;
    const validate = clobot(['validate', path]);
    expect([validate.status, validate.stderr]).toEqual([2, expected]);
    const run = clobot(['run', path, '--no-status', '--duration', '1s']);
    expect([run.status, run.stderr]).toEqual([2, expected]);
    expect(venueRequests).toBe(0);
  }, 60_000);

  it('a module that loads but is no strategy, and a disabled strategy that is not loaded at all', () => {
    writeFileSync(join(dir, 'nothing.mjs'), 'export default {};\n');
    const path = paperConfig('nodef.yaml', ['  - id: a', '    module: ./nothing.mjs', '  - id: off', '    module: ./gone.ts', '    enabled: false']);
    const expected = `strategies[0].module (${path}:8): strategy module './nothing.mjs': definition has no name\n`;
    expect(clobot(['validate', path]).stderr).toBe(expected);
    const run = clobot(['run', path, '--no-status']);
    expect([run.status, run.stderr]).toEqual([2, expected]);
    expect(venueRequests).toBe(0);
  }, 60_000);

  it('run without an enabled strategy, and an empty --store, are refused with exit 2 before anything starts', () => {
    const path = paperConfig('none.yaml', ['  - id: off', `    module: ${MARKET_MAKER}`, '    enabled: false']);
    const validate = clobot(['validate', path]);
    expect([validate.status, validate.stderr]).toEqual([0, `warning: strategies (${path}:6): every strategy is disabled: nothing will trade\n`]);
    expect(clobot(['run', path, '--no-status'])).toMatchObject({ status: 2, stderr: `strategies (${path}:6): no enabled strategy: a run needs at least one\n` });
    const good = paperConfig('good.yaml', ['  - id: mm', `    module: ${MARKET_MAKER}`]);
    expect(clobot(['run', good, '--store', '', '--no-status'])).toMatchObject({
      status: 2,
      stderr: "error: option '--store <file>' argument '' is invalid. expected a path, got an empty value\n",
    });
    expect(venueRequests).toBe(0);
  }, 60_000);
});

describe('a backtest config given to clobot run', () => {
  it('is one line at its mode: key, exit 2, nothing logged or started', () => {
    const path = join(dir, 'backtest.yaml');
    writeFileSync(path, ['# a backtest', 'mode: backtest', 'data:', '  markets: { slugs: [m] }', 'strategies:', '  - id: mm', `    module: ${MARKET_MAKER}`, ''].join('\n'));
    expect(clobot(['run', path, '--no-status'])).toEqual({
      status: 2,
      stdout: '',
      stderr: `mode (${path}:2): a backtest runs with 'clobot backtest <config> --data <file…>', not 'clobot run'\n`,
    });
  }, 60_000);
});

describe('a live run on a venue of its own with no store', () => {
  it('is warned on stderr, naming the config, before it starts; with --store it is not', () => {
    const key = `0x${'11'.repeat(32)}`;
    const live = join(dir, 'live-no-store.yaml');
    writeFileSync(live, ['mode: live', 'venue:', `  baseUrl: ${venueUrl}`, '  retries: 0', 'data:', '  markets: { slugs: [m] }', 'strategies:', '  - id: mm', `    module: ${MARKET_MAKER}`, ''].join('\n'));
    const env = { ...process.env, CLOBOT_PRIVATE_KEY: key };
    const run = (args: string[]) => spawnSync(process.execPath, ['bin/clobot.mjs', 'run', ...args, '--no-status', '--duration', '1s'], { encoding: 'utf8', env });
    // the counting venue answers 503: the run does not start, but the warning came first
    const bare = run([live]);
    expect(bare.stderr.split('\n')[0]).toMatch(new RegExp(`^warning: store \\(${live.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\): no store.path \\(nor --store\\) for a live run on ${venueUrl}: .*count as held outside the bot`));
    expect(run([live, '--store', join(dir, 'live-no-store.sqlite')]).stderr).not.toContain('no store.path');
  }, 60_000);
});

describe('clobot run --duration', () => {
  it('600h (beyond a 32-bit timer) keeps the run going until SIGINT stops it, exit 0', async () => {
    const path = join(dir, 'long.yaml');
    writeFileSync(
      path,
      [
        'mode: paper',
        'venue:',
        '  embedded: { markets: 2, events: 1 }',
        'data:',
        '  markets: { filter: { maxCount: 1 } }',
        'strategies:',
        '  - id: mm',
        `    module: ${MARKET_MAKER}`,
        'logging:',
        '  level: info',
        '',
      ].join('\n'),
    );
    const summary = join(dir, 'long-summary.json');
    const child = spawn(process.execPath, ['bin/clobot.mjs', 'run', path, '--duration', '600h', '--no-status', '--summary', summary], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    // the JSON log on stdout says when the run has started (and its signal handlers are on)
    await new Promise<void>((started, failed) => {
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        if (stdout.includes('"run started"')) started();
      });
      void exited.then(() => failed(new Error(`the run ended before it started: ${stderr}`)));
    });
    // well past the 1 ms an overflowing timer would have waited
    await new Promise((r) => setTimeout(r, 2_000));
    expect(child.exitCode).toBeNull();
    child.kill('SIGINT');
    const [code] = await exited;
    expect(stderr).toMatch(/^stopped: /m);
    expect(code).toBe(0);
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toHaveProperty('ordersSubmitted');
  }, 60_000);
});
