import type { TestProject } from 'vitest/node';
import { startThrowawayCluster } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** Gives the PostgreSQL suite a server: DATABASE_URL when set, else a throwaway cluster. */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('postgresUrl', process.env.DATABASE_URL);
    return;
  }
  const cluster = await startThrowawayCluster();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
