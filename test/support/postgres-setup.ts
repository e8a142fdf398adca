// Global setup of the `postgres` test project: one throwaway PostgreSQL server for the whole run.
import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgres.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgresCluster();
  project.provide('postgresAdminUrl', cluster.adminUrl);
  return () => cluster.stop();
}
