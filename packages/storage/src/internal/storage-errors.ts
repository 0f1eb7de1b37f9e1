import { StorageError } from '../errors.ts';

/** The error for a stale or unexpected revision. */
export function revisionConflict(
  what: string,
  expected: number | undefined,
  actual: number | undefined,
): StorageError {
  const wanted = expected === 0 ? 'to not exist' : `revision ${expected}`;
  const found = actual === undefined ? 'it does not exist' : `it has revision ${actual}`;
  return new StorageError('REVISION_CONFLICT', `${what}: expected ${wanted} but ${found}`, {
    details: { target: what, expectedRevision: expected, actualRevision: actual ?? null },
  });
}

/** The error for a document key owned by another document. */
export function duplicateKey(
  collection: string,
  key: string,
  id: string,
  ownerId: string,
): StorageError {
  return new StorageError(
    'DUPLICATE_KEY',
    `${collection}/${id}: key ${JSON.stringify(key)} is already used by ${collection}/${ownerId}`,
    { details: { collection, key, id, ownerId } },
  );
}

/** The error for a call outside `open()`…`close()`. */
export function notOpen(adapter: string): StorageError {
  return new StorageError('NOT_OPEN', `${adapter} storage is not open: call open() first`);
}

/** Rejects when the caller's signal is already aborted; work already started is atomic. */
export function throwIfAborted(options: { readonly signal?: AbortSignal } | undefined): void {
  options?.signal?.throwIfAborted();
}
