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

/** The error for a fence whose lease is no longer held (see `LeaseFence`). */
export function leaseLost(target: string, owner: string, holder: string | undefined): StorageError {
  const now = holder === undefined ? 'it is not leased (or gone)' : `it is leased to ${holder}`;
  return new StorageError(
    'LEASE_LOST',
    `${target}: the commit's author ${owner} no longer holds its lease (${now}); nothing was changed`,
    { details: { target, owner, holder: holder ?? null } },
  );
}

/** Who holds a work item's lease, for a `LEASE_LOST` message. */
export function leaseHolder(
  item: { readonly leaseOwner?: string | undefined; readonly attempts: number } | undefined,
): string | undefined {
  return item?.leaseOwner === undefined
    ? undefined
    : `${item.leaseOwner} (attempt ${item.attempts})`;
}

/** The error for a call outside `open()`…`close()`. */
export function notOpen(adapter: string): StorageError {
  return new StorageError('NOT_OPEN', `${adapter} storage is not open: call open() first`);
}

/** Rejects when the caller's signal is already aborted; work already started is atomic. */
export function throwIfAborted(options: { readonly signal?: AbortSignal } | undefined): void {
  options?.signal?.throwIfAborted();
}
