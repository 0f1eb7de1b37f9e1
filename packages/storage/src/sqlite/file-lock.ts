import { hostname } from 'node:os';
import BetterSqlite3 from 'better-sqlite3';
import { StorageError } from '../errors.ts';

/** Who holds a database file's lock, as the holder wrote it down. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

/** A held lock on a database file; `release()` gives it up (idempotent). */
export interface FileLock {
  readonly path: string;
  release(): void;
}

/** The sidecar file whose lock stands for the database's: `<database>-lock`. */
export function lockPathOf(databasePath: string): string {
  return `${databasePath}-lock`;
}

function busy(error: unknown): boolean {
  return error instanceof BetterSqlite3.SqliteError && error.code.startsWith('SQLITE_BUSY');
}

function readHolder(db: BetterSqlite3.Database): LockHolder | undefined {
  try {
    const row = db.prepare('SELECT pid, host, since FROM holder LIMIT 1').get() as
      | { pid: number; host: string; since: string }
      | undefined;
    return row === undefined ? undefined : { pid: row.pid, host: row.host, since: row.since };
  } catch {
    // No holder written yet (the table is created by the first holder), or the file is busy.
    return undefined;
  }
}

function inUse(databasePath: string, holder: LockHolder | undefined): StorageError {
  const who =
    holder === undefined
      ? 'another process'
      : `process ${holder.pid} on ${holder.host} (since ${holder.since})${holder.pid === process.pid && holder.host === hostname() ? ', this process' : ''}`;
  return new StorageError(
    'DATABASE_IN_USE',
    `${databasePath} is in use by ${who}: one engine writes a SQLite file at a time. Stop that engine first, or open this one read-only (sqliteStorage({ readOnly: true })) to read.`,
    { details: { path: databasePath, holder } },
  );
}

/**
 * Takes the exclusive lock of a database file, or throws `DATABASE_IN_USE` naming the process
 * that holds it. The lock is SQLite's own write lock on a sidecar database, `<database>-lock`,
 * held by a transaction left open until `release()`: the operating system drops it when the
 * process dies (SIGKILL, OOM kill), so a crash never leaves the file locked, and SQLite keeps it
 * exclusive between connections of one process too. Readers of the sidecar are not blocked, so a
 * refused process can read who holds it. (docs/decisions/0019-one-engine-per-sqlite-file.md)
 */
export function acquireFileLock(databasePath: string): FileLock {
  const path = lockPathOf(databasePath);
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(path, { timeout: 0 });
  } catch (error) {
    throw new StorageError(
      'DATABASE_ERROR',
      `Locking ${databasePath} failed: ${(error as Error).message}`,
      { details: { path: databasePath }, cause: error },
    );
  }
  const refuse = (): never => {
    const holder = readHolder(db);
    db.close();
    throw inUse(databasePath, holder);
  };
  try {
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      if (busy(error)) refuse();
      throw error;
    }
    // Write down who holds it (committed, so that others can read it), then hold the lock with a
    // transaction that stays open. Whoever took it in between has written itself down instead.
    db.exec(
      'CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, host TEXT NOT NULL, since TEXT NOT NULL)',
    );
    db.exec('DELETE FROM holder');
    db.prepare('INSERT INTO holder (pid, host, since) VALUES (?, ?, ?)').run(
      process.pid,
      hostname(),
      new Date().toISOString(),
    );
    // A refused process may be reading the holder at this moment: let the commit wait for it.
    db.pragma('busy_timeout = 2000');
    db.exec('COMMIT');
    db.pragma('busy_timeout = 0');
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      if (busy(error)) refuse();
      throw error;
    }
  } catch (error) {
    if (error instanceof StorageError) throw error;
    if (db.open) db.close();
    throw new StorageError(
      'DATABASE_ERROR',
      `Locking ${databasePath} failed: ${(error as Error).message}`,
      {
        details: { path: databasePath },
        cause: error,
      },
    );
  }
  let held = true;
  return {
    path,
    release() {
      if (!held) return;
      held = false;
      try {
        db.exec('ROLLBACK');
      } finally {
        db.close();
      }
    },
  };
}
