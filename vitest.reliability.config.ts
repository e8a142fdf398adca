import { defineConfig } from 'vitest/config';

/**
 * The long reliability runs (crash cycles, load, 10,000 fuzzed requests, disk growth and a full disk):
 * `npm run test:reliability`. The crash and load runs go again on a throwaway PostgreSQL server.
 */
export default defineConfig({
  test: {
    testTimeout: 900_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/reliability/**/*.long.ts'] } },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['test/reliability/crash.long.ts', 'test/reliability/load.long.ts'],
          env: { CKB_TEST_DATABASE: 'postgres' },
          globalSetup: ['test/support/postgres-setup.ts'],
        },
      },
    ],
  },
});
