import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import type {
  PostgresStorageAdapter,
  PostgresStorageOptions,
} from '../postgres/postgres-storage.ts';
import { postgresStorage } from '../postgres/postgres-storage.ts';

/** The PostgreSQL server of a test file, with a schema of its own per call. */
export interface PostgresForTests {
  /** The server's URL; empty when there is no server (then `skip` is true). */
  readonly url: string;
  /** True when there is no server and the tests should skip (never under `CI=true`). */
  readonly skip: boolean;
  /** Why there is no server, for the skip message. */
  readonly missing: string;
  /**
   * A new schema name, unique to this file (`t<random>_<n>`), dropped with everything in it
   * after the file's tests.
   */
  schema(): string;
  /**
   * A fresh adapter (unopened, empty) on a schema of this file. Creating a schema costs
   * PostgreSQL a few hundred milliseconds of DDL, so the schemas of adapters that were closed
   * are emptied and used again.
   */
  storage(options?: Omit<PostgresStorageOptions, 'schema'>): Promise<PostgresStorageAdapter>;
}

const TABLES = ['documents', 'runs', 'run_events', 'work', 'deliveries', 'blobs'];

/**
 * The test run's PostgreSQL server, provided by the global setup
 * (`@docflow/storage/src/testing/postgres/global-setup.ts` in a vitest config's `globalSetup`).
 * Each test file gets schemas of its own, so files run in parallel on one server. Without a
 * server the file's PostgreSQL tests skip, except under `CI=true`, where this throws: CI must
 * prove the adapter on a real server.
 *
 * @example
 * const pg = postgresForTests();
 * describe.skipIf(pg.skip)('postgres', () => {
 *   describeStorageContract('postgres', () =>
 *     postgresStorage({ connectionString: pg.url }, { schema: pg.schema() }));
 * });
 */
export function postgresForTests(): PostgresForTests {
  const url = inject('docflowPostgresUrl') ?? '';
  const missing = inject('docflowPostgresMissing') ?? 'no PostgreSQL server';
  if (url === '' && process.env.CI === 'true') {
    throw new Error(
      `CI=true but ${missing}: .ci/run starts a server and sets DOCFLOW_TEST_POSTGRES_URL`,
    );
  }
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const made: string[] = [];
  /** Schemas whose adapter was closed (migrated, maybe not empty). */
  const free: string[] = [];
  let admin: Promise<pg.Client> | undefined;
  const client = () => {
    admin ??= (async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    })();
    return admin;
  };
  afterAll(async () => {
    if (admin === undefined && made.length === 0) return;
    const c = await client();
    try {
      if (made.length > 0) {
        await c.query(`DROP SCHEMA IF EXISTS ${made.map((m) => `"${m}"`).join(', ')} CASCADE`);
      }
    } finally {
      await c.end();
    }
  }, 60_000);
  const schema = () => {
    const name = `${prefix}_${made.length + 1}`;
    made.push(name);
    return name;
  };
  return {
    url,
    skip: url === '',
    missing,
    schema,
    async storage(options = {}) {
      let name = free.pop();
      if (name !== undefined) {
        const c = await client();
        await c.query(TABLES.map((t) => `DELETE FROM "${name}".${t};`).join(' '));
      } else name = schema();
      const adapter = postgresStorage({ connectionString: url }, { ...options, schema: name });
      const close = adapter.close.bind(adapter);
      let freed = false;
      // Its schema is used again once the adapter closed.
      adapter.close = async () => {
        await close();
        if (freed) return;
        freed = true;
        free.push(name);
      };
      return adapter;
    },
  };
}
