import { rm } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { runDaemon } from '../../daemon/main.ts';
import { freePort } from '../cli/run.ts';
import { startTestDaemon } from '../support/daemon.ts';
import { newHome, testDatabaseKind } from '../support/home.ts';
import { createDatabase, startPostgresCluster } from '../support/postgres.ts';
import { openHomeDatabase } from '../support/storage.ts';

describe('database faults', () => {
  test('a database that a newer ckb has migrated is left alone, and the daemon says so', async () => {
    const daemon = await startTestDaemon();
    await daemon.daemon.close();
    const database = await openHomeDatabase(daemon.home);
    await database.db
      .insertInto('kysely_migration' as never)
      .values({ name: '9999_from_the_future', timestamp: new Date().toISOString() } as never)
      .execute();
    await database.close();
    await expect(runDaemon({ home: daemon.home, port: 0, handleSignals: false })).rejects.toThrow(
      /upgraded by a newer version of ckb \(schema 9999_from_the_future\); upgrade ckb/,
    );
    await rm(daemon.home, { recursive: true, force: true });
  });

  test('a PostgreSQL server that cannot be reached at start is named by host and database, never the password', async () => {
    const home = await newHome();
    const url = `postgres://ckb:very-secret-word@127.0.0.1:${await freePort()}/knowledge`;
    const started = runDaemon({ home, port: 0, databaseUrl: url, handleSignals: false });
    const error = await started.catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /cannot connect to PostgreSQL database "knowledge" on 127\.0\.0\.1:\d+/,
    );
    expect((error as Error).message).not.toContain('very-secret-word');
    await rm(home, { recursive: true, force: true });
  });

  test.runIf(testDatabaseKind() === 'postgres')(
    'a lost PostgreSQL server makes requests fail with 503, and the daemon reconnects on its own',
    async () => {
      const cluster = await startPostgresCluster();
      const home = await newHome({ database_url: await createDatabase(cluster.adminUrl) });
      const daemon = await startTestDaemon({ home });
      try {
        const created = await daemon.call('POST', '/applications', { name: 'before' });
        expect(created.status).toBe(201);
        await cluster.pause();
        for (const [method, path, body] of [
          ['GET', '/applications'],
          ['POST', '/applications', { name: 'while down' }],
          ['GET', `/applications/${created.body.id}`],
        ] as const) {
          const response = await daemon.call(method, path, body);
          expect(response.status, `${method} ${path}`).toBe(503);
          expect(response.body.error).toMatchObject({ type: 'service_unavailable' });
          expect(response.body.error.message).toMatch(/database is unavailable/);
        }
        const health = await daemon.call('GET', '/health', undefined, null);
        expect(health.status).toBe(503);
        expect(health.body.error).toEqual({
          type: 'service_unavailable',
          message: 'this ckb process cannot reach the database; it answers again once it can',
        });
        await cluster.resume();
        expect((await daemon.call('GET', '/health', undefined, null)).body).toMatchObject({ status: 'ok' });
        const names = (await daemon.call('GET', '/applications')).body.map(
          (app: { name: string }) => app.name,
        );
        expect(names).toEqual(['before']);
        expect((await daemon.call('POST', '/applications', { name: 'after' })).status).toBe(201);
      } finally {
        await daemon.close();
        await cluster.stop();
        await rm(home, { recursive: true, force: true });
      }
    },
  );
});
