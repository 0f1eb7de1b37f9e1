/** Stable codes of {@link StorageError}. Documented in `docs/errors.md`. */
export const StorageErrorCode = {
  /** An expected revision did not match; nothing was changed. */
  REVISION_CONFLICT: 'REVISION_CONFLICT',
  /** A unique document key is already used by another document; nothing was changed. */
  DUPLICATE_KEY: 'DUPLICATE_KEY',
  /** The database was written by a newer docflow schema than this version knows. */
  SCHEMA_TOO_NEW: 'SCHEMA_TOO_NEW',
  /** A commit's fence names a lease its author no longer holds (taken over); nothing was changed. */
  LEASE_LOST: 'LEASE_LOST',
  /** A method was called before `open()` or after `close()`. */
  NOT_OPEN: 'NOT_OPEN',
  /** A page token was not produced by this adapter for this query. */
  INVALID_PAGE_TOKEN: 'INVALID_PAGE_TOKEN',
  /** Arguments violate the contract (bad page size, unknown collection, …). */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** The underlying database failed. */
  DATABASE_ERROR: 'DATABASE_ERROR',
  /** Another engine (process) holds the database file: one writer per file. */
  DATABASE_IN_USE: 'DATABASE_IN_USE',
  /** A write through an adapter opened read-only. */
  READ_ONLY: 'READ_ONLY',
} as const;

/** A {@link StorageError} code. */
export type StorageErrorCode = (typeof StorageErrorCode)[keyof typeof StorageErrorCode];

/** Thrown by storage adapters for contract violations and infrastructure failures. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  readonly code: StorageErrorCode;
  /** True when retrying the same call may succeed. */
  readonly retryable: boolean;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: StorageErrorCode,
    message: string,
    options: { retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }
}

/** True when `value` is a {@link StorageError}, optionally with the given code. */
export function isStorageError(value: unknown, code?: StorageErrorCode): value is StorageError {
  return value instanceof StorageError && (code === undefined || value.code === code);
}
