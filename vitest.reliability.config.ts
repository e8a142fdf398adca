import { defineConfig } from 'vitest/config';

/** The long reliability runs (crash cycles, load, 10,000 fuzzed requests, disk growth): `npm run test:reliability`. */
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.long.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
