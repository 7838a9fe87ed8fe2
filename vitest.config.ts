import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One test file at a time: many files start a sandbox, spawn `clobot` processes or time
    // real HTTP round trips, and on a 2-core machine running them side by side starves them.
    fileParallelism: false,
  },
});
