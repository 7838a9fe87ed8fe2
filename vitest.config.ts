import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/**
 * Three projects, chosen by a file's name (nothing to register; a new file defaults to `unit`):
 * - `soak`: `*.soak.test.ts`, minutes each (the crash loop, the npm pack install, Chromium);
 * - `e2e`: `*.e2e.test.ts` and everything under an `e2e/` folder: a sandbox and a run end to
 *   end, or `clobot` processes spawned, seconds each;
 * - `unit`: every other `*.test.ts`, in-process, the inner loop (`npm run test:unit`).
 * `npm test` runs all three in one pool, files side by side; the longest projects start first.
 */
const SOAK = ['test/**/*.soak.test.ts'];
const E2E = ['test/**/*.e2e.test.ts', 'test/**/e2e/**/*.test.ts'];
const ALL = ['test/**/*.test.ts'];
/** The default time limit of an e2e or soak test (a test can name its own). */
const SLOW_TIMEOUT_MS = 120_000;

/** Start order: soak, then e2e, then unit; within a project vitest's own order (longest known first, else largest). */
const PROJECT_ORDER: Readonly<Record<string, number>> = { soak: 0, e2e: 1, unit: 2 };

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => PROJECT_ORDER[f.project.name] ?? 3;
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  resolve: {
    // `clobot` and its subpaths are this repository's sources (as tsconfig.json's paths say):
    // tests and the strategies they load need no build step. Longest first: an alias matches a prefix.
    alias: [
      { find: /^clobot\/testing$/, replacement: source('./src/testing/index.ts') },
      { find: /^clobot\/venue$/, replacement: source('./src/venue/index.ts') },
      { find: /^clobot$/, replacement: source('./src/index.ts') },
    ],
  },
  test: {
    // tsx in worker threads and `clobot` processes the tests start reads the same paths
    env: { TSX_TSCONFIG_PATH: source('./tsconfig.json') },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Files run side by side (design note 8). Many files wait on loopback round trips, timers and
    // child processes rather than compute, so one worker more than the cores keeps both busy.
    // CLOBOT_TEST_WORKERS overrides (1 runs one file at a time).
    maxWorkers: Number(process.env.CLOBOT_TEST_WORKERS ?? availableParallelism() + 1),
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: ALL, exclude: [...SOAK, ...E2E] } },
      // a test here runs `clobot` processes one after another (each loads tsx: about a second
      // quiet, several under load) or a run end to end: the time limit is a hang's bound, not a speed check
      { extends: true, test: { name: 'e2e', include: E2E, exclude: SOAK, testTimeout: SLOW_TIMEOUT_MS, hookTimeout: SLOW_TIMEOUT_MS } },
      { extends: true, test: { name: 'soak', include: SOAK, testTimeout: SLOW_TIMEOUT_MS, hookTimeout: SLOW_TIMEOUT_MS } },
    ],
  },
});
