/**
 * Where the CLI's engines keep their state: the SQLite file of `--db` (the default), or the
 * PostgreSQL database of `--postgres URL`, in the schema of `--postgres-schema` (default
 * `docflow`), which several processes share (docs/operations.md, "Several processes").
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { StorageAdapter } from '@docflow/storage';
import type { CliContext } from './cli-context.ts';
import { CliError, ExitCode } from './cli-error.ts';

/** The storage flags of the commands that open an engine. */
export interface StorageFlags {
  readonly db?: string | undefined;
  readonly postgres?: string | undefined;
  readonly postgresSchema?: string | undefined;
}

/** The storage the flags name. */
export type EngineStorage =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly connectionString: string; readonly schema: string };

/** The database file of `--db`, default `docflow.db` in the working directory. */
export function databasePath(context: CliContext, db: string | undefined): string {
  return resolve(context.cwd, db ?? 'docflow.db');
}

const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

/** The storage of `--postgres` (and `--postgres-schema`), else the SQLite file of `--db`. */
export function engineStorage(context: CliContext, flags: StorageFlags): EngineStorage {
  if (flags.postgres === undefined)
    return { kind: 'sqlite', path: databasePath(context, flags.db) };
  if (!/^postgres(ql)?:\/\//.test(flags.postgres)) {
    throw new CliError(
      '--postgres must be a postgres:// or postgresql:// URL (libpq form: postgres://user:password@host:port/database)',
      ExitCode.USAGE,
    );
  }
  const schema = flags.postgresSchema ?? 'docflow';
  if (!SCHEMA.test(schema)) {
    throw new CliError(
      `--postgres-schema ${JSON.stringify(schema)} must be 1 to 63 of a-z, 0-9 and _, not starting with a digit`,
      ExitCode.USAGE,
    );
  }
  return { kind: 'postgres', connectionString: flags.postgres, schema };
}

/** A line naming the storage for humans (no password). */
export function describeStorage(storage: EngineStorage): string {
  if (storage.kind === 'sqlite') return `SQLite ${storage.path}`;
  const url = new URL(storage.connectionString);
  url.password = '';
  return `PostgreSQL ${url.host}${url.pathname}, schema ${storage.schema}`;
}

/** The adapter of `storage` (loaded on demand: `--help` and `formula` pay for no driver). */
export async function storageAdapter(storage: EngineStorage): Promise<StorageAdapter> {
  if (storage.kind === 'sqlite') {
    const { sqliteStorage } = await import('@docflow/storage/sqlite');
    return sqliteStorage({ path: storage.path });
  }
  const { postgresStorage } = await import('@docflow/storage/postgres');
  return postgresStorage(
    { connectionString: storage.connectionString },
    { schema: storage.schema, applicationName: 'docflow-cli' },
  );
}

/**
 * The schema of a server workspace on PostgreSQL: the prefix (`--postgres-schema`) and a digest
 * of the workspace id (ids mix cases; schema names here are lower case).
 */
export function workspaceSchema(prefix: string, workspaceId: string): string {
  const digest = createHash('sha256').update(workspaceId).digest('hex').slice(0, 24);
  return `${prefix.slice(0, 63 - 28)}_ws_${digest}`;
}
