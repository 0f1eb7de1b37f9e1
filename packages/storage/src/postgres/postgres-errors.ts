import { StorageError } from '../errors.ts';

/** A server error as node-postgres reports it (`DatabaseError`): it carries a SQLSTATE. */
export interface ServerError extends Error {
  readonly code: string;
  readonly detail?: string | undefined;
  readonly constraint?: string | undefined;
}

/** The SQLSTATE `docflow_check` raises (see the migrations). */
export const CHECK_FAILED = 'DF001';
/** "current transaction is aborted": a statement sent behind one that failed. */
export const IN_FAILED_TRANSACTION = '25P02';

/** SQLSTATEs after which the same transaction may succeed when tried again. */
const RETRYABLE = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available
  '57P01', // admin_shutdown (the server restarts)
  '53300', // too_many_connections
]);

/** True for an error the server sent (as opposed to a lost connection or a driver error). */
export function isServerError(error: unknown): error is ServerError {
  if (!(error instanceof Error)) return false;
  const code: unknown = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/** True when trying the whole transaction again may succeed (deadlock, serialization). */
export function isTransient(error: unknown): boolean {
  return isServerError(error) && (error.code === '40001' || error.code === '40P01');
}

/** Wraps driver and server errors in `DATABASE_ERROR`; contract errors pass through. */
export function toStorageError(error: unknown, what = 'PostgreSQL failed'): unknown {
  if (error instanceof StorageError) return error;
  if (isServerError(error)) {
    return new StorageError('DATABASE_ERROR', `${what}: ${error.message}`, {
      retryable: RETRYABLE.has(error.code),
      details: { sqlState: error.code },
      cause: error,
    });
  }
  if (error instanceof Error) {
    // A lost connection, a refused one, a timeout: the server may be back soon.
    return new StorageError('DATABASE_ERROR', `${what}: ${error.message}`, {
      retryable: true,
      details: {},
      cause: error,
    });
  }
  return error;
}
