import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StrategyError } from '../../src/core/errors.ts';
import { STRATEGY_API_VERSION, type StrategyDefinition } from '../../src/strategy/api.ts';
import { checkDefinition, findStrategyModule, importStrategyModule, loadStrategy, moduleFileProblem, strategyModuleCandidates, type StrategySource } from '../../src/strategy/loader.ts';

const STRATEGIES = resolve('strategies');

/** A configured strategy as the config gives it: the module found where the loader looks. */
function source(module: string, configDir: string, params: Record<string, unknown> = {}, repoRoot = '/nowhere'): StrategySource {
  const { path, candidates } = findStrategyModule(module, configDir, repoRoot);
  return { id: 's', module, modulePath: path ?? candidates[0]!, moduleCandidates: candidates, params };
}

describe('strategy loader', () => {
  it('loads every strategy module shipped in strategies/ from TypeScript, without a build', async () => {
    const files = readdirSync(STRATEGIES).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const { definition } = await loadStrategy(source(join(STRATEGIES, file), STRATEGIES));
      expect(definition.apiVersion).toBe(STRATEGY_API_VERSION);
      expect(typeof definition.name).toBe('string');
    }
  });

  it('looks for a module against the config, then the repo root, then the repo strategies/', () => {
    expect(strategyModuleCandidates('/abs/x.ts', '/cfg', '/repo')).toEqual(['/abs/x.ts']);
    expect(strategyModuleCandidates('./x.ts', '/cfg', '/repo')).toEqual(['/cfg/x.ts']);
    expect(strategyModuleCandidates('../x.ts', '/cfg/sub', '/repo')).toEqual(['/cfg/x.ts']);
    expect(strategyModuleCandidates('x.ts', '/cfg', '/repo')).toEqual(['/cfg/x.ts', '/repo/x.ts', '/repo/strategies/x.ts']);
    // the first that exists wins
    const repo = mkdtempSync(join(tmpdir(), 'clobot-repo-'));
    mkdirSync(join(repo, 'strategies'));
    writeFileSync(join(repo, 'strategies', 'mine.mjs'), '');
    expect(findStrategyModule('mine.mjs', join(repo, 'configs'), repo).path).toBe(join(repo, 'strategies', 'mine.mjs'));
  });

  it('parses the params with the strategy schema, or the override given, and names a bad one by its config path', async () => {
    const definition: StrategyDefinition = {
      name: 'p',
      apiVersion: STRATEGY_API_VERSION,
      params: z.object({ size: z.number().min(1).default(5) }),
    };
    const s: StrategySource = { id: 'mm', module: 'p.ts', modulePath: '/none/p.ts', moduleCandidates: ['/none/p.ts'], params: {} };
    expect((await loadStrategy(s, { definition })).params).toEqual({ size: 5 });
    expect((await loadStrategy(s, { definition, params: { size: 7 } })).params).toEqual({ size: 7 });
    await expect(loadStrategy(s, { definition, params: { size: 0 } })).rejects.toThrow(/^strategies\.mm\.params\.size: /);
  });

  it('refuses a module built for another API version, naming both versions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clobot-strat-'));
    writeFileSync(join(dir, 'old.mjs'), `export default { name: 'old', apiVersion: ${STRATEGY_API_VERSION + 1}, onBook() {} };\n`);
    await expect(loadStrategy(source('./old.mjs', dir))).rejects.toThrow(new RegExp(`version ${STRATEGY_API_VERSION + 1}.*version ${STRATEGY_API_VERSION}`));
  });

  it('names a missing module and every place it looked', async () => {
    await expect(loadStrategy(source('nope.ts', '/tmp', {}, '/repo'))).rejects.toThrow(
      "strategy module 'nope.ts' not found (looked in /tmp/nope.ts, /repo/nope.ts, /repo/strategies/nope.ts)",
    );
  });

  it('refuses definitions without a name, with non-function hooks, or without a default export', () => {
    expect(() => checkDefinition(undefined, 'x')).toThrow(StrategyError);
    expect(() => checkDefinition({ apiVersion: STRATEGY_API_VERSION }, 'x')).toThrow(/no name/);
    expect(() => checkDefinition({ name: 'n', apiVersion: STRATEGY_API_VERSION, onBook: 5 }, 'x')).toThrow(/onBook must be a function/);
    expect(() => checkDefinition({ name: 'n', apiVersion: STRATEGY_API_VERSION, timerIntervalMs: -1 }, 'x')).toThrow(/timerIntervalMs/);
  });

  it('reports a module that fails to load', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clobot-strat-'));
    writeFileSync(join(dir, 'broken.mjs'), 'export default {;\n');
    await expect(loadStrategy(source('./broken.mjs', dir))).rejects.toThrow(/failed to load/);
  });
});

describe('strategy module files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clobot-modules-'));

  it('only a regular .ts, .mts, .js or .mjs file can be a strategy module', () => {
    mkdirSync(join(dir, 'folder.mjs'));
    writeFileSync(join(dir, 'notes.txt'), 'hi');
    expect(moduleFileProblem(resolve('strategies/market-maker.ts'))).toBeUndefined();
    expect(moduleFileProblem('/etc/passwd')).toBe('must be a .ts, .mts, .js or .mjs file, but /etc/passwd is not');
    expect(moduleFileProblem(resolve('package.json'))).toBe(`must be a .ts, .mts, .js or .mjs file, but ${resolve('package.json')} is not`);
    expect(moduleFileProblem(join(dir, 'folder.mjs'))).toBe(`must be a .ts, .mts, .js or .mjs file, but ${dir}/folder.mjs is a folder`);
    expect(moduleFileProblem('/dev/null')).toBe('must be a .ts, .mts, .js or .mjs file, but /dev/null is not a regular file');
    expect(moduleFileProblem(join(dir, 'gone.ts'))).toBe('cannot be read (no such file: ENOENT)');
  });

  it('the loader refuses such a file before importing it, and a load failure is one line', async () => {
    const source = (module: string, modulePath: string) => ({ id: 's', module, modulePath, moduleCandidates: [modulePath], params: {} });
    await expect(importStrategyModule(source('/etc/passwd', '/etc/passwd'))).rejects.toThrow("strategy module '/etc/passwd' must be a .ts, .mts, .js or .mjs file, but /etc/passwd is not");
    writeFileSync(join(dir, 'throws.mjs'), "throw new Error('first line\\nsecond line');\n");
    const thrown = join(dir, 'throws.mjs');
    await expect(importStrategyModule(source('./throws.mjs', thrown))).rejects.toThrow(
      `strategy module './throws.mjs' (${thrown}) failed to load: it threw while loading: first line (${thrown}:1:7); fix: correct the module's top-level code`,
    );
  });

  it('a top-level await that never settles is one line after the load time, not a silent exit 13', async () => {
    const source = (module: string, modulePath: string) => ({ id: 's', module, modulePath, moduleCandidates: [modulePath], params: {} });
    const hung = join(dir, 'hangs.mjs');
    writeFileSync(hung, 'await new Promise(() => {});\nexport default { name: "never" };\n');
    await expect(importStrategyModule(source('./hangs.mjs', hung), 200)).rejects.toThrow(
      "strategy module './hangs.mjs' did not finish loading within 0.2 s: a top-level await in it (or in what it imports) never settled",
    );
    // a module whose top-level await settles loads as usual within its time
    const slow = join(dir, 'slow.mjs');
    writeFileSync(slow, 'await new Promise((r) => setTimeout(r, 20));\nexport default { name: "slow", apiVersion: 3 };\n');
    await expect(importStrategyModule(source('./slow.mjs', slow), 5_000)).resolves.toMatchObject({ name: 'slow' });
  });
});

describe('strategy modules outside the repo', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clobot-outside-'));
  const api = resolve('src/index.ts');
  const load = (file: string) => importStrategyModule({ id: 's', module: `./${file}`, modulePath: join(dir, file), moduleCandidates: [join(dir, file)], params: {} });

  it('loads a .ts strategy from a folder with no package.json (Node would treat it as CommonJS)', async () => {
    writeFileSync(join(dir, 'lone.ts'), `import { defineStrategy } from '${api}';\nexport default defineStrategy({ name: 'lone', init: () => ({ n: 1 }) });\n`);
    const def = await load('lone.ts');
    expect(def.name).toBe('lone');
    expect(def.apiVersion).toBe(STRATEGY_API_VERSION);
  });

  it('a failure names the file, the cause and the fix', async () => {
    writeFileSync(join(dir, 'no-pkg.ts'), "import left from 'left-pad-not-installed';\nexport default left;\n");
    await expect(load('no-pkg.ts')).rejects.toThrow("it imports the package 'left-pad-not-installed', which is not installed; fix: run `npm install left-pad-not-installed`");
    writeFileSync(join(dir, 'syntax.ts'), 'export default { name: "x", apiVersion: 2, onBook() { return 1 +; } };\n');
    await expect(load('syntax.ts')).rejects.toThrow(/failed to load: syntax error at \S*syntax\.ts:1:\d+: .*; fix: correct the module$/);
  });

  it('the clobot CLI loads a lone .ts strategy importing clobot from any folder, no build step', () => {
    writeFileSync(join(dir, 'uses-clobot.ts'), "import { defineStrategy, px } from 'clobot';\nexport default defineStrategy({ name: 'x', init: () => ({ limit: px('0.5') }) });\n");
    writeFileSync(join(dir, 'c.yaml'), 'mode: paper\nvenue: { embedded: {} }\ndata:\n  markets: { filter: { maxCount: 1 } }\nstrategies:\n  - id: s\n    module: ./uses-clobot.ts\n');
    const out = spawnSync(process.execPath, [resolve('bin/clobot.mjs'), 'validate', join(dir, 'c.yaml')], { cwd: dir, encoding: 'utf8' });
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
  });

  it('v1 and v2 modules still load; another version is refused with how to port', async () => {
    writeFileSync(join(dir, 'v1.mjs'), "export default { name: 'old', apiVersion: 1, onBook() {} };\n");
    expect((await load('v1.mjs')).apiVersion).toBe(1);
    writeFileSync(join(dir, 'v2.mjs'), "export default { name: 'older', apiVersion: 2, init() { return {}; }, onBook() {} };\n");
    expect((await load('v2.mjs')).apiVersion).toBe(2);
    writeFileSync(join(dir, 'v9.mjs'), "export default { name: 'future', apiVersion: 9 };\n");
    await expect(load('v9.mjs')).rejects.toThrow(
      "strategy 'future' (./v9.mjs) targets strategy API version 9; this clobot runs version 3 (and still loads 1, 2): make the module with this clobot's defineStrategy",
    );
  });
});
