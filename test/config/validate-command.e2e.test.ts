import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { STRATEGY_API_VERSION } from '../../src/strategy/api.ts';
import { tempDir, VECTOR_KEY } from './helpers.ts';

const tmp = tempDir();

/** Runs the real CLI as a user would: `node bin/clobot.mjs validate ...`, with no CLOBOT_* variables unless given. */
function clobot(args: string[], extraEnv: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('CLOBOT_')) env[k] = v;
  const r = spawnSync(process.execPath, ['bin/clobot.mjs', ...args], { env: { ...env, ...extraEnv }, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('clobot validate', () => {
  it('ok on the shipped default config: exit 0 and a one-line summary', () => {
    const r = clobot(['validate', 'config/default.yaml']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('ok: config/default.yaml (mode live, 1 strategy, 1 market selector)\n');
    expect(r.status).toBe(0);
  });

  it('a bad config: the error lines on stderr, exit 2; a secret in the environment is never printed', () => {
    const text = 'mode: live\nvenue:\n  baseUrl: https://venue.example\nrisk:\n  maxOrderNotional: -5\n  maxOpenOrdres: 3\n';
    const path = tmp.write('bad.yaml', text);
    const r = clobot(['validate', path], { CLOBOT_PRIVATE_KEY: VECTOR_KEY });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        `risk.maxOrderNotional (${path}:5): must be > 0, was -5`,
        `risk.maxOpenOrdres (${path}:6): unknown key; did you mean maxOpenOrders?`,
        '',
      ].join('\n'),
    );
    expect(r.status).toBe(2);
  });

  it('live against a URL without a key: exit 2 naming the variable', () => {
    const path = tmp.write('nokey.yaml', 'mode: live\nvenue:\n  baseUrl: https://venue.example\n');
    const r = clobot(['validate', path]);
    expect(r.stderr).toContain('set the environment variable CLOBOT_PRIVATE_KEY');
    expect(r.status).toBe(2);
    const ok = clobot(['validate', path], { CLOBOT_PRIVATE_KEY: VECTOR_KEY });
    expect(ok.stdout).toBe(`ok: ${path} (mode live, 0 strategies, 0 market selectors)\n`);
    expect(ok.stdout + ok.stderr).not.toContain(VECTOR_KEY.slice(2));
    expect(ok.status).toBe(0);
  });

  it('--venue counts as the venue, as for run: a paper config with no venue key validates with it', () => {
    const path = tmp.write('novenue.yaml', 'mode: paper\n');
    const r = clobot(['validate', path]);
    expect(r.stderr).toContain('venue');
    expect(r.stderr).toContain('required in paper mode');
    expect(r.status).toBe(2);
    const ok = clobot(['validate', path, '--venue', 'http://127.0.0.1:9']);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe(`ok: ${path} (mode paper, 0 strategies, 0 market selectors)\n`);
    expect(ok.status).toBe(0);
  });

  it('loads the strategy modules without being asked (--check-modules of older scripts still accepted)', () => {
    tmp.write('strat.mjs', 'export default {};\n');
    const text = 'mode: backtest\ndata:\n  markets: { tokenIds: ["1", "2"] }\nstrategies:\n  - { id: a, module: ./strat.mjs }\n  - { id: b, module: ./gone.mjs, markets: { slugs: [s] } }\n';
    const path = tmp.write('mods.yaml', text);
    for (const args of [['validate', path], ['validate', '--check-modules', path]]) {
      const r = clobot(args);
      expect(r.stderr).toBe(`strategies[1].module (${path}:6): module file not found (looked at ${tmp.dir}/gone.mjs)\n`);
      expect(r.status).toBe(2);
    }
    tmp.write('gone.mjs', `export default { name: 'g', apiVersion: ${STRATEGY_API_VERSION} };\n`);
    const r = clobot(['validate', path]);
    expect(r.stderr).toBe(`strategies[0].module (${path}:5): strategy module './strat.mjs': definition has no name\n`);
    expect(r.status).toBe(2);
  });

  it('reads a config only from a regular file of at most 1 MiB: a device, a folder and a large file are refused at once', () => {
    const big = tmp.write('big.yaml', `mode: backtest\n#${'x'.repeat(1024 * 1024)}\n`);
    const cases: [string, string][] = [
      ['/dev/zero', '/dev/zero: cannot read config file (a device; give the path of a YAML file)'],
      [tmp.dir, `${tmp.dir}: cannot read config file (a directory; give the path of a YAML file)`],
      [big, `${big}: cannot read config file (larger than 1 MiB; a run config is a few kilobytes)`],
    ];
    for (const [path, line] of cases) {
      const r = clobot(['validate', path]);
      expect([r.status, r.stdout, r.stderr]).toEqual([2, '', `${line}\n`]);
    }
  });

  it('a missing file: exit 2', () => {
    const r = clobot(['validate', `${tmp.dir}/none.yaml`]);
    expect(r.stderr).toBe(`${tmp.dir}/none.yaml: cannot read config file (no such file: ENOENT)\n`);
    expect(r.status).toBe(2);
    const empty = clobot(['validate', '']);
    expect([empty.status, empty.stderr]).toEqual([2, "error: command-argument value '' is invalid for argument 'config'. expected a path, got an empty value\n"]);
  });
});
