import { expect } from 'vitest';
import type { StorageErrorCode } from '../errors.ts';
import { StorageError } from '../errors.ts';
import type {
  DeliveryWrite,
  DocumentWrite,
  RunWrite,
  StorageAdapter,
  WorkItemInput,
} from '../storage-adapter.ts';

/** Makes a fresh, unopened adapter with empty state. */
export type StorageFactory = () => StorageAdapter | Promise<StorageAdapter>;

/** What every contract group gets: the current (opened) adapter and the factory. */
export interface ContractContext {
  /** The adapter opened for the current test. */
  readonly storage: () => StorageAdapter;
  readonly factory: StorageFactory;
}

/** A fixed instant plus `seconds`, as RFC 3339; tests never depend on the wall clock. */
export function at(seconds: number): string {
  return new Date(Date.UTC(2030, 0, 1) + seconds * 1000).toISOString();
}

/** A run write with sensible defaults. */
export function runWrite(
  id: string,
  expectedRevision: number,
  extra: Partial<RunWrite> = {},
): RunWrite {
  return {
    id,
    kind: 'workflow_run',
    status: 'PENDING',
    active: true,
    priority: 50,
    snapshot: { step: expectedRevision },
    expectedRevision,
    ...extra,
  };
}

/** A document write with sensible defaults. */
export function docWrite(id: string, extra: Partial<DocumentWrite> = {}): DocumentWrite {
  return { collection: 'workflows', id, data: { name: id }, ...extra };
}

/** A work item with sensible defaults. */
export function workItem(id: string, extra: Partial<WorkItemInput> = {}): WorkItemInput {
  return {
    id,
    runId: 'run_1',
    kind: 'step',
    priority: 50,
    availableAt: at(0),
    payload: { id },
    ...extra,
  };
}

/** A pending delivery due at `at(0)`. */
export function delivery(id: string, extra: Partial<DeliveryWrite> = {}): DeliveryWrite {
  return {
    id,
    endpointId: 'endpoint_1',
    eventId: `event_${id}`,
    eventType: 'workflow_run.processed',
    event: { eventId: `event_${id}`, eventType: 'workflow_run.processed', payload: {} },
    status: 'pending',
    attempts: [],
    nextAttemptAt: at(0),
    ...extra,
  };
}

/** Asserts that `promise` rejects with a `StorageError` of `code` and returns it. */
export async function expectStorageError(
  promise: Promise<unknown>,
  code: StorageErrorCode,
): Promise<StorageError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected a StorageError ${code}`).toBeInstanceOf(StorageError);
  expect((error as StorageError).code).toBe(code);
  return error as StorageError;
}
