/**
 * vitest `globalSetup` giving the test run a PostgreSQL server: the one `DOCFLOW_TEST_POSTGRES_URL`
 * names (a developer's own server), else a throwaway one started here and stopped at the end
 * (`startTemporaryPostgres`), else none. Tests read the URL with `postgresForTests()` from
 * `@docflow/storage/testing`, which skips them without a server, and fails them when
 * `CI=true`. `.ci/run` starts the server itself and sets the variable.
 */
import type { TestProject } from 'vitest/node';
import type { TemporaryPostgres } from './temporary-postgres.ts';
import { findPostgresBinaries, startTemporaryPostgres } from './temporary-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test run's PostgreSQL URL; empty when there is none. */
    docflowPostgresUrl: string;
    /** Why there is no server, when there is none. */
    docflowPostgresMissing: string;
  }
}

let server: TemporaryPostgres | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.DOCFLOW_TEST_POSTGRES_URL;
  let url = '';
  let missing = '';
  if (given !== undefined && given !== '') url = given;
  else if (findPostgresBinaries() === undefined) {
    missing =
      'no PostgreSQL server: DOCFLOW_TEST_POSTGRES_URL is not set and PostgreSQL is not installed (no initdb)';
  } else {
    try {
      // Test files run in parallel, each with its adapters' pools.
      server = await startTemporaryPostgres({ settings: { max_connections: 300 } });
      url = server.url;
    } catch (error) {
      missing = `starting a throwaway PostgreSQL failed: ${(error as Error).message}`;
    }
  }
  project.provide('docflowPostgresUrl', url);
  project.provide('docflowPostgresMissing', missing);
  return async () => {
    await server?.stop();
    server = undefined;
  };
}
