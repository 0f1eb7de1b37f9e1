import BetterSqlite3 from 'better-sqlite3';
import { StorageError } from '../errors.ts';
import type { Durability } from '../storage-adapter.ts';
import { migrate } from './migrations.ts';

/** The settings every connection of one adapter opens with. */
export interface ConnectionSettings {
  readonly path: string;
  readonly durability: Durability;
  readonly busyTimeoutMs: number;
  readonly mmapSizeBytes: number;
  readonly walCheckpointPages: number;
}

const RETRYABLE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT']);

/** Wraps driver errors in `DATABASE_ERROR`; contract errors pass through. */
export function toStorageError(error: unknown, opening = false): unknown {
  if (error instanceof StorageError) return error;
  // better-sqlite3 reports an unopenable path as a TypeError; elsewhere a TypeError is a bug.
  if (error instanceof BetterSqlite3.SqliteError || (opening && error instanceof TypeError)) {
    const code = error instanceof BetterSqlite3.SqliteError ? error.code : 'TypeError';
    return new StorageError('DATABASE_ERROR', `SQLite failed: ${error.message}`, {
      retryable: RETRYABLE_CODES.has(code),
      details: { sqliteCode: code },
      cause: error,
    });
  }
  return error;
}

/** Runs driver calls, turning driver errors into `DATABASE_ERROR` (see {@link toStorageError}). */
export function runSql<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw toStorageError(error);
  }
}

/**
 * Opens a connection with the adapter's settings; `migrateSchema` brings the schema up to date
 * first (the writing connection does, a reading one opened after it need not).
 */
export function openConnection(
  settings: ConnectionSettings,
  migrateSchema: boolean,
  readOnly = false,
): BetterSqlite3.Database {
  let db: BetterSqlite3.Database | undefined;
  try {
    if (readOnly) {
      // Reads only: nothing about the file is changed (its journal mode, its schema).
      db = new BetterSqlite3(settings.path, { readonly: true, fileMustExist: true });
      db.pragma(`busy_timeout = ${settings.busyTimeoutMs}`);
      db.pragma(`mmap_size = ${settings.mmapSizeBytes}`);
      return db;
    }
    db = new BetterSqlite3(settings.path);
    db.pragma('journal_mode = WAL');
    // batched promises what normal promises (a process crash loses no resolved commit) with
    // fewer transactions; FULL's fsync per group made it slower than normal (docs/decisions).
    db.pragma(`synchronous = ${settings.durability === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma(`busy_timeout = ${settings.busyTimeoutMs}`);
    db.pragma(`mmap_size = ${settings.mmapSizeBytes}`);
    // Group commit puts each commit in a savepoint when one of them fails; a sub-journal in a
    // temp file doubled the cost of a batched step commit.
    db.pragma('temp_store = MEMORY');
    db.pragma(`wal_autocheckpoint = ${settings.walCheckpointPages}`);
    // After a checkpoint the WAL is reused from its start; this truncates a WAL that a burst
    // grew beyond the checkpoint size back to it.
    db.pragma(`journal_size_limit = ${Math.max(settings.walCheckpointPages, 1000) * 4096}`);
    if (migrateSchema) migrate(db, settings.path);
    return db;
  } catch (error) {
    db?.close();
    throw toStorageError(error, true);
  }
}
