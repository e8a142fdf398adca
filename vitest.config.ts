import { defineConfig } from 'vitest/config';

/**
 * Every test runs on the embedded SQLite (`sqlite`); the tests of the API, the stores and crashes run again on a
 * throwaway PostgreSQL server (`postgres`, started by test/support/postgres-setup.ts). The CLI's tests run once:
 * the CLI speaks HTTP only, so which database the daemon behind it keeps is the API tests' concern. The one
 * exception runs on both: a command starting the daemon on demand, whose process reads its database from the config.
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one file at a time on 2 cores (cores - 1); most of a file's time is spent waiting on the
    // daemons, servers and CLI processes it starts, so two at once keep both cores busy.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: [
            'test/daemon/**/*.test.ts',
            'test/cli/autostart.test.ts',
            'test/reliability/races.test.ts',
            'test/reliability/upload-crash.test.ts',
            'test/reliability/auth-matrix.test.ts',
            'test/store/jobs.test.ts',
            'test/store/source-versions.test.ts',
            'test/store/chunk-writes.test.ts',
            'test/store/shared-database.test.ts',
          ],
          env: { CKB_TEST_DATABASE: 'postgres' },
          globalSetup: ['test/support/postgres-setup.ts'],
        },
      },
    ],
  },
});
