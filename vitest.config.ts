import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

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
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One test file at a time: many files start a sandbox, spawn `clobot` processes or time
    // real HTTP round trips, and on a 2-core machine running them side by side starves them.
    fileParallelism: false,
  },
});
