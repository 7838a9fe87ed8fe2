// The package as a user gets it (issue 12, "Done when"): `npm pack` this repository, install the
// tarball into an empty folder, `clobot init bot`, then inside bot its own `npm install`, `tsc
// --noEmit`, `npm test`, `clobot validate`, a backtest of its sample recording with fills (and a
// sweep on worker threads) and a 20 s live run on the embedded sandbox with fills. Installs use
// the npm cache (`--prefer-offline`) and a loopback mirror of better-sqlite3's prebuilt addon
// (prebuilt-mirror.ts). Slow: about 5 minutes on 2 busy cores.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRATEGY_API_VERSION } from '../../src/strategy/api.ts';
import { startPrebuiltMirror, type PrebuiltMirror } from './prebuilt-mirror.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MINUTE = 60_000;

interface Ran {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

let work = '';
let bot = '';
let mirror: PrebuiltMirror | undefined;
const timings: string[] = [];

/** The environment of every child: no variable of this test run that would change how they resolve or run. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...mirror?.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith('VITEST') || key === 'NODE_OPTIONS' || key === 'TSX_TSCONFIG_PATH' || key.startsWith('npm_lifecycle') || key === 'npm_command') delete env[key];
  }
  return env;
}

/** Runs a command (async: the mirror answers in this process meanwhile), killed after `timeoutMs`; throws with its output unless it exits 0. */
async function run(label: string, cmd: string, args: string[], cwd: string, timeoutMs: number): Promise<Ran> {
  const started = Date.now();
  const child = spawn(cmd, args, { cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  timings.push(`${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (code !== 0) {
    const tail = (text: string): string => text.trim().split('\n').slice(-15).join('\n');
    throw new Error(`${label} (${cmd} ${args.join(' ')} in ${cwd}) exited ${code ?? 'by timeout'}\nstdout:\n${tail(out)}\nstderr:\n${tail(err)}`);
  }
  return { code, out, err };
}

const npm = (label: string, args: string[], cwd: string, timeoutMs = 8 * MINUTE): Promise<Ran> =>
  run(label, 'npm', [...args, '--no-audit', '--no-fund', '--no-update-notifier'], cwd, timeoutMs);
const clobot = (label: string, args: string[], timeoutMs = 2 * MINUTE): Promise<Ran> => run(label, join(bot, 'node_modules', '.bin', 'clobot'), args, bot, timeoutMs);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'clobot-pack-'));
  bot = join(work, 'bot');
  mirror = await startPrebuiltMirror(REPO);
  const packed = await npm('npm pack', ['pack', '--json', '--pack-destination', work], REPO, 5 * MINUTE);
  const tarball = (JSON.parse(packed.out.slice(packed.out.indexOf('['))) as { filename: string }[])[0]!.filename;
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await npm('install the tarball', ['install', '--prefer-offline', `./${tarball}`], work);
  await run('clobot init bot', join(work, 'node_modules', '.bin', 'clobot'), ['init', 'bot'], work, MINUTE);
  await npm('npm install in bot', ['install', '--prefer-offline'], bot);
}, 25 * MINUTE);

afterAll(async () => {
  console.log(`pack test steps: ${timings.join(', ')}`);
  await mirror?.close();
  if (work !== '') rmSync(work, { recursive: true, force: true });
}, 2 * MINUTE);

describe('the packed clobot in a user project', () => {
  it('is the compiled package: dist with types, no TypeScript sources of clobot itself', () => {
    const installed = join(bot, 'node_modules', 'clobot');
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/testing/index.js', 'dist/testing/index.d.ts', 'dist/venue/index.d.ts', 'dist/cli/main.js']) {
      expect(existsSync(join(installed, file)), file).toBe(true);
    }
    expect(existsSync(join(installed, 'src', 'cli'))).toBe(false);
    const pkg = JSON.parse(readFileSync(join(bot, 'package.json'), 'utf8'));
    expect(pkg.dependencies.clobot).toMatch(/^file:\.\.\/clobot-.*\.tgz$/);
  });

  it('resolves clobot, clobot/testing and clobot/venue from the project with plain node', async () => {
    const probe = [
      "const api = await import('clobot');",
      "const testing = await import('clobot/testing');",
      "const venue = await import('clobot/venue');",
      'console.log(api.STRATEGY_API_VERSION, typeof api.defineStrategy, typeof testing.runStrategy, typeof venue.createVenueClient);',
    ].join(' ');
    const r = await run('node imports', process.execPath, ['--input-type=module', '-e', probe], bot, MINUTE);
    expect(r.out.trim()).toBe(`${STRATEGY_API_VERSION} function function function`);
  }, 2 * MINUTE);

  it('type-checks (tsc --noEmit)', async () => {
    await run('tsc --noEmit', join(bot, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', '.'], bot, 2 * MINUTE);
  }, 3 * MINUTE);

  it("passes its own npm test (clobot/testing)", async () => {
    const r = await npm('npm test in bot', ['test'], bot, 3 * MINUTE);
    // every test of the template's test file ran and passed
    const tests = (readFileSync(join(REPO, 'templates', 'project', 'test', 'quoter.test.ts'), 'utf8').match(/^\s*it\(/gm) ?? []).length;
    expect(tests).toBeGreaterThan(0);
    // eslint-disable-next-line no-control-regex
    expect(r.out.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(new RegExp(`Tests\\s+${tests} passed`));
  }, 4 * MINUTE);

  it('validates its configs', async () => {
    for (const config of ['config/live.yaml', 'config/paper.yaml', 'config/backtest.yaml']) {
      const r = await clobot(`validate ${config}`, ['validate', config]);
      expect(r.out).toContain(`ok: ${config}`);
    }
  }, 4 * MINUTE);

  it('backtests its sample recording with fills', async () => {
    await clobot('backtest', ['backtest', 'config/backtest.yaml', '--data', 'data/sample.jsonl.gz', '--out', 'bt-out'], 4 * MINUTE);
    const summary = JSON.parse(readFileSync(join(bot, 'bt-out', 'summary.json'), 'utf8'));
    expect(summary.metrics.fills).toBeGreaterThan(0);
    // a sweep runs the strategy on worker threads (the compiled worker entries load it there)
    await clobot('sweep', ['backtest', 'config/backtest.yaml', '--data', 'data/sample.jsonl.gz', '--out', 'sweep-out', '--sweep', 'quoter.improveTicks=0,1'], 4 * MINUTE);
    const index = JSON.parse(readFileSync(join(bot, 'sweep-out', 'sweep.json'), 'utf8'));
    expect(index.points.map((p: { label: string; metrics: { fills: number } }) => [p.label, p.metrics.fills > 0]).sort()).toEqual([
      ['quoter.improveTicks=0', true],
      ['quoter.improveTicks=1', true],
    ]);
  }, 8 * MINUTE);

  it('trades live on the embedded sandbox for 20 s with fills and a verified stop', async () => {
    await clobot('live 20 s', ['run', 'config/live.yaml', '--duration', '20s', '--summary', 'live-summary.json'], 3 * MINUTE);
    const summary = JSON.parse(readFileSync(join(bot, 'live-summary.json'), 'utf8'));
    expect(summary.ordersAccepted).toBeGreaterThan(0);
    expect(summary.fills).toBeGreaterThan(0);
    expect(summary.stop?.verified).toBe(true);
  }, 4 * MINUTE);
});
