import { existsSync, statSync } from 'node:fs';
import { extname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StrategyError, fileErrorReason } from '../core/errors.ts';
import { importCompiled } from './compile-module.ts';
import { HOOK_NAMES, STRATEGY_API_VERSION, SUPPORTED_API_VERSIONS, type StrategyDefinition } from './api.ts';
import { loadFailure } from './load-failure.ts';
import { parseStrategyParams } from './strategy-params.ts';

/**
 * The one strategy loader: where a module is looked for, its import (TypeScript through tsx, or
 * JavaScript), the check of its definition and the parse of its params. The config resolves each
 * strategy's module with `findStrategyModule` when it is loaded; live, paper, backtest and sweep
 * runs then load it with `loadStrategy`.
 */

/**
 * Where a strategy module is looked for, in order: an absolute path as is; `./x` and `../x`
 * against the config file's directory only; any other relative path against the config file's
 * directory, then the repo root (so `strategies/market-maker.ts` works from any config), then
 * the repo's `strategies/` folder (so `market-maker.ts` does too).
 */
export function strategyModuleCandidates(module: string, configDir: string, repoRoot: string): string[] {
  if (isAbsolute(module)) return [module];
  if (module.startsWith('./') || module.startsWith('../')) return [resolve(configDir, module)];
  const out = [resolve(configDir, module), resolve(repoRoot, module), resolve(repoRoot, 'strategies', module)];
  return [...new Set(out)];
}

/** The first candidate that exists (`path`, undefined when none does) and every candidate. */
export function findStrategyModule(module: string, configDir: string, repoRoot: string): { path: string | undefined; candidates: string[] } {
  const candidates = strategyModuleCandidates(module, configDir, repoRoot);
  return { path: candidates.find((p) => existsSync(p)), candidates };
}

/** The files a strategy module may be: TypeScript (run through tsx) or JavaScript modules. */
export const STRATEGY_MODULE_EXTENSIONS: readonly string[] = ['.ts', '.mts', '.js', '.mjs'];

/**
 * Why `path` cannot be a strategy module, or undefined when it can: it must be a regular file
 * named .ts, .mts, .js or .mjs (not `/etc/passwd`, a folder, `package.json`, a device).
 */
export function moduleFileProblem(path: string): string | undefined {
  let st;
  try {
    st = statSync(path);
  } catch (err) {
    return `cannot be read (${fileErrorReason(err)})`;
  }
  const allowed = `a ${STRATEGY_MODULE_EXTENSIONS.join(', ').replace(/, (?=[^,]*$)/, ' or ')} file`;
  if (!st.isFile()) return `must be ${allowed}, but ${path} is ${st.isDirectory() ? 'a folder' : 'not a regular file'}`;
  if (!STRATEGY_MODULE_EXTENSIONS.includes(extname(path))) return `must be ${allowed}, but ${path} is not`;
  return undefined;
}

/** A configured strategy as the loader needs it (a config's `StrategyConfig` is one). */
export interface StrategySource {
  readonly id: string;
  /** The module as written in the config (for messages). */
  readonly module: string;
  /** The module's absolute path, as `findStrategyModule` found it (or its first candidate). */
  readonly modulePath: string;
  /** Every place looked at, for the "not found" message. */
  readonly moduleCandidates: readonly string[];
  readonly params: Readonly<Record<string, unknown>>;
}

export interface LoadedStrategy {
  readonly id: string;
  readonly definition: StrategyDefinition;
  /** The params checked and defaulted by the strategy's own schema, frozen. */
  readonly params: unknown;
}

export interface LoadStrategyOptions {
  /** Params to use instead of the configured ones (a sweep point's). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** A definition to use instead of importing the module (tests). */
  readonly definition?: StrategyDefinition;
}

/** Imports a configured strategy's module, checks its definition and parses its params. */
export async function loadStrategy(source: StrategySource, options: LoadStrategyOptions = {}): Promise<LoadedStrategy> {
  const definition = options.definition ?? (await importStrategyModule(source));
  const params = parseStrategyParams(definition, source.id, options.params ?? source.params);
  return { id: source.id, definition, params };
}

/**
 * Imports a configured strategy's module and checks its definition (no params): the module must
 * be a regular .ts/.mts/.js/.mjs file. Throws StrategyError with one line naming the module.
 */
export async function importStrategyModule(source: StrategySource, loadTimeoutMs = STRATEGY_LOAD_TIMEOUT_MS): Promise<StrategyDefinition> {
  const { module, modulePath } = source;
  if (!existsSync(modulePath)) {
    const looked = source.moduleCandidates.length > 0 ? source.moduleCandidates : [modulePath];
    throw new StrategyError(`strategy module '${module}' not found (looked in ${looked.join(', ')})`);
  }
  const problem = moduleFileProblem(modulePath);
  if (problem !== undefined) throw new StrategyError(`strategy module '${module}' ${problem}`);
  let mod: { default?: unknown };
  try {
    mod = await withinLoadTime(importModule(modulePath), module, loadTimeoutMs);
  } catch (err) {
    if (err instanceof StrategyError) throw err;
    throw new StrategyError(loadFailure(module, modulePath, err), { cause: err });
  }
  return checkDefinition(mod.default, module);
}

/**
 * How long a strategy module may take to load (its top-level code, awaits included). A top-level
 * await that never settles would otherwise leave nothing for the event loop to wait on, and Node
 * ends the process with exit 13 and no word; this timer keeps it waiting, then says so.
 */
export const STRATEGY_LOAD_TIMEOUT_MS = 60_000;

function withinLoadTime<T>(loading: Promise<T>, module: string, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new StrategyError(
          `strategy module '${module}' did not finish loading within ${timeoutMs / 1000} s: a top-level await in it (or in what it imports) never settled`,
        ),
      );
    }, timeoutMs);
    loading.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/**
 * Imports a module file. TypeScript that the process's own loader cannot import as an ES module
 * (a `.ts` file in a folder with no `"type": "module"` package.json, which Node treats as
 * CommonJS, or any `.ts` when the process runs compiled JavaScript without tsx registered, as
 * `clobot backtest` does) is compiled in this thread by esbuild (compile-module.ts), or where that
 * cannot write its file, imported through tsx's scoped loader: a strategy loads from any folder
 * with no build step.
 */
async function importModule(modulePath: string): Promise<{ default?: unknown }> {
  const url = pathToFileURL(modulePath).href;
  try {
    return (await import(url)) as { default?: unknown };
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (!TS_FALLBACK_CODES.has(code as string) || !/\.m?ts$/.test(modulePath)) throw err;
  }
  // once per process, as `import()` caches a module by its URL: tsx's scoped loader does not
  // cache across calls (each loads the module and all it imports anew, ~0.1 s of CPU per
  // backtest of a sweep or a bench from dist/); a failed load is tried again next time
  let loading = tsImported.get(url);
  if (loading === undefined) {
    // compiled in this thread (no loader thread, compile-module.ts), else through tsx's scoped loader
    const options = COMPILED_CHECKOUT ? { parentURL: import.meta.url, tsconfig: false as const } : import.meta.url;
    loading = importCompiled(modulePath, { tsconfig: !COMPILED_CHECKOUT }).then(
      (mod) => mod ?? import('tsx/esm/api').then(({ tsImport }) => tsImport(url, options) as Promise<{ default?: unknown }>),
    );
    tsImported.set(url, loading);
    loading.catch(() => tsImported.delete(url));
  }
  const mod = await loading;
  // a module tsx compiled as CommonJS arrives wrapped once more: { default: { default: def } }
  const inner = mod.default as { name?: unknown; default?: unknown } | undefined;
  if (inner && typeof inner === 'object' && inner.name === undefined && inner.default !== undefined) return { default: inner.default };
  return mod;
}

/**
 * True in a clobot checkout running its compiled dist/ (`npm run bench:dist`): the repository's
 * tsconfig.json maps `clobot` to src/ for runs from the sources, so a strategy tsx compiled with
 * it would load a second clobot, from src/ through tsx, beside the dist/ one running it (twice
 * the modules in memory, and the strategy's helpers not the shipped ones). Without it, `clobot`
 * resolves as in an installed package: to dist/ (package.json exports). An installed clobot has
 * no tsconfig.json beside dist/ (not in the package's files), so a user's own is kept.
 */
const COMPILED_CHECKOUT = !import.meta.url.endsWith('.ts') && existsSync(fileURLToPath(new URL('../../tsconfig.json', import.meta.url)));

/** TypeScript modules imported by the fallback (compiled here, or through tsx's scoped loader), by file URL. */
const tsImported = new Map<string, Promise<{ default?: unknown }>>();

/** Import failures that mean "this process cannot import that .ts file as an ES module". */
const TS_FALLBACK_CODES = new Set(['ERR_REQUIRE_CYCLE_MODULE', 'ERR_REQUIRE_ESM', 'ERR_UNKNOWN_FILE_EXTENSION']);

/** A definition as a module exports it: a name, this STRATEGY_API_VERSION and callable hooks. */
export function checkDefinition(value: unknown, where: string): StrategyDefinition {
  if (typeof value !== 'object' || value === null) {
    throw new StrategyError(`strategy module '${where}' has no default export of a strategy definition (use defineStrategy)`);
  }
  const def = value as Partial<StrategyDefinition>;
  if (typeof def.name !== 'string' || def.name === '') throw new StrategyError(`strategy module '${where}': definition has no name`);
  if (typeof def.apiVersion !== 'number' || !SUPPORTED_API_VERSIONS.includes(def.apiVersion)) {
    throw new StrategyError(
      `strategy '${def.name}' (${where}) targets strategy API version ${String(def.apiVersion)}; this clobot runs version ${STRATEGY_API_VERSION} ` +
        `(and still loads ${SUPPORTED_API_VERSIONS.filter((v) => v !== STRATEGY_API_VERSION).join(', ')}): make the module with this clobot's defineStrategy ` +
        `(import { defineStrategy } from 'clobot'), see "Porting a version 1 module" in docs/strategies/writing.md`,
    );
  }
  for (const hook of [...HOOK_NAMES, 'init', 'stream'] as const) {
    const fn = def[hook];
    if (fn !== undefined && typeof fn !== 'function') throw new StrategyError(`strategy '${def.name}': ${hook} must be a function`);
  }
  if (def.timerIntervalMs !== undefined && !(Number.isFinite(def.timerIntervalMs) && def.timerIntervalMs > 0)) {
    throw new StrategyError(`strategy '${def.name}': timerIntervalMs must be a positive number`);
  }
  if (def.updatable !== undefined && !(Array.isArray(def.updatable) && def.updatable.every((k) => typeof k === 'string'))) {
    throw new StrategyError(`strategy '${def.name}': updatable must be a list of params keys (strings)`);
  }
  return def as StrategyDefinition;
}
