import { StorageError } from '../errors.ts';
import type { Changes, ClaimOptions, CollectionName } from '../storage-adapter.ts';
import { COLLECTIONS } from '../storage-adapter.ts';
import { parseTime } from './time.ts';

const collections: ReadonlySet<string> = new Set(COLLECTIONS);
const deliveryStatuses: ReadonlySet<string> = new Set(['pending', 'succeeded', 'failed']);

/** Throws `INVALID_ARGUMENT` naming the offending path. */
export function invalid(path: string, reason: string): never {
  throw new StorageError('INVALID_ARGUMENT', `${path} ${reason}`, { details: { path } });
}

/** Validates a non-empty string. */
export function checkString(value: unknown, path: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) {
    invalid(path, `must be a non-empty string, got ${describe(value)}`);
  }
}

function checkOptionalString(value: unknown, path: string): void {
  if (value !== undefined) checkString(value, path);
}

function checkObject(value: unknown, path: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    invalid(path, `must be a JSON object, got ${describe(value)}`);
  }
}

function checkArray(value: unknown, path: string): asserts value is readonly unknown[] {
  if (!Array.isArray(value)) invalid(path, `must be an array, got ${describe(value)}`);
}

function checkInteger(value: unknown, path: string, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    invalid(path, `must be an integer from ${min} to ${max}, got ${describe(value)}`);
  }
}

function checkFinite(value: unknown, path: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    invalid(path, `must be a finite number, got ${describe(value)}`);
  }
}

function checkOptionalTime(value: unknown, path: string): void {
  if (value !== undefined) parseTime(value, path);
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object')
    return value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object';
  return String(value);
}

/** Validates a collection name. */
export function checkCollection(value: unknown, path: string): asserts value is CollectionName {
  if (typeof value !== 'string' || !collections.has(value)) {
    invalid(path, `must be one of ${COLLECTIONS.join(', ')}, got ${describe(value)}`);
  }
}

/** Validates a page size and applies the default of 10. */
export function checkPageSize(value: unknown): number {
  if (value === undefined) return 10;
  checkInteger(value, 'pageSize', 1, 1000);
  return value as number;
}

/** Validates a list order and applies the default `desc`. */
export function checkOrder(value: unknown): 'asc' | 'desc' {
  if (value === undefined) return 'desc';
  if (value !== 'asc' && value !== 'desc')
    invalid('order', `must be "asc" or "desc", got ${describe(value)}`);
  return value;
}

/** Validates a list's `sortBy` (default `createdAt`). */
export function checkSortBy(value: unknown): 'createdAt' | 'updatedAt' {
  if (value === undefined) return 'createdAt';
  if (value !== 'createdAt' && value !== 'updatedAt')
    invalid('sortBy', `must be "createdAt" or "updatedAt", got ${describe(value)}`);
  return value;
}

/** Validates the options of `claimWork` / `claimDeliveries`. */
export function checkClaim(options: ClaimOptions): void {
  checkObject(options, 'options');
  checkString(options.owner, 'owner');
  checkInteger(options.limit, 'limit', 1, 1000);
  checkInteger(options.leaseMs, 'leaseMs', 1, Number.MAX_SAFE_INTEGER);
  checkOptionalTime(options.now, 'now');
}

/** Validates a list of ids. */
export function checkIds(ids: unknown, path: string): asserts ids is readonly string[] {
  checkArray(ids, path);
  ids.forEach((id, i) => {
    checkString(id, `${path}[${i}]`);
  });
}

/** Validates an optional non-negative integer option. */
export function checkOptionalCount(value: unknown, path: string, min: number): void {
  if (value !== undefined) checkInteger(value, path, min, Number.MAX_SAFE_INTEGER);
}

/** Validates an optional boolean filter. */
export function checkOptionalBoolean(value: unknown, path: string): void {
  if (value !== undefined && typeof value !== 'boolean') {
    invalid(path, `must be a boolean, got ${describe(value)}`);
  }
}

export { checkOptionalString, checkOptionalTime };

/**
 * Validates the shape of a unit of work before anything is touched, so that bad input is reported
 * with its path and never half-applied. Revision and key checks need the stored state and happen
 * in the adapter.
 */
export function validateChanges(changes: Changes): void {
  checkObject(changes, 'changes');
  if (changes.fences !== undefined) {
    checkArray(changes.fences, 'changes.fences');
    changes.fences.forEach((f, i) => {
      const p = `changes.fences[${i}]`;
      checkObject(f, p);
      checkString(f.owner, `${p}.owner`);
      if ('workId' in f) {
        checkString(f.workId, `${p}.workId`);
        checkInteger(f.attempts, `${p}.attempts`, 1, Number.MAX_SAFE_INTEGER);
      } else if ('deliveryId' in f) checkString(f.deliveryId, `${p}.deliveryId`);
      else invalid(p, 'must name a workId or a deliveryId');
    });
  }
  if (changes.documents !== undefined) {
    checkArray(changes.documents, 'changes.documents');
    changes.documents.forEach((d, i) => {
      const p = `changes.documents[${i}]`;
      checkObject(d, p);
      checkCollection(d.collection, `${p}.collection`);
      checkString(d.id, `${p}.id`);
      checkOptionalString(d.parentId, `${p}.parentId`);
      checkOptionalString(d.secondaryId, `${p}.secondaryId`);
      checkOptionalString(d.key, `${p}.key`);
      if (d.name !== undefined && typeof d.name !== 'string')
        invalid(`${p}.name`, 'must be a string');
      checkOptionalString(d.blobKey, `${p}.blobKey`);
      checkObject(d.data, `${p}.data`);
      checkOptionalCount(d.expectedRevision, `${p}.expectedRevision`, 0);
      checkOptionalTime(d.at, `${p}.at`);
    });
  }
  if (changes.deleteDocuments !== undefined) {
    checkArray(changes.deleteDocuments, 'changes.deleteDocuments');
    changes.deleteDocuments.forEach((d, i) => {
      const p = `changes.deleteDocuments[${i}]`;
      checkObject(d, p);
      checkCollection(d.collection, `${p}.collection`);
      checkString(d.id, `${p}.id`);
    });
  }
  if (changes.runs !== undefined) {
    checkArray(changes.runs, 'changes.runs');
    changes.runs.forEach((r, i) => {
      const p = `changes.runs[${i}]`;
      checkObject(r, p);
      checkString(r.id, `${p}.id`);
      checkString(r.kind, `${p}.kind`);
      checkOptionalString(r.workflowId, `${p}.workflowId`);
      checkOptionalString(r.batchId, `${p}.batchId`);
      checkString(r.status, `${p}.status`);
      if (typeof r.active !== 'boolean') invalid(`${p}.active`, 'must be a boolean');
      if (r.settles !== undefined && typeof r.settles !== 'boolean') {
        invalid(`${p}.settles`, 'must be a boolean');
      }
      checkFinite(r.priority, `${p}.priority`);
      checkObject(r.snapshot, `${p}.snapshot`);
      checkInteger(r.expectedRevision, `${p}.expectedRevision`, 0, Number.MAX_SAFE_INTEGER);
      checkOptionalTime(r.at, `${p}.at`);
      if (r.patch !== undefined) {
        if (r.expectedRevision === 0)
          invalid(`${p}.patch`, 'is only for a run that exists (expectedRevision above 0)');
        checkSnapshotPatch(r.patch, `${p}.patch`);
      }
      if (r.events !== undefined) {
        checkArray(r.events, `${p}.events`);
        r.events.forEach((e, j) => {
          checkObject(e, `${p}.events[${j}]`);
          checkString(e.type, `${p}.events[${j}].type`);
          checkObject(e.data, `${p}.events[${j}].data`);
        });
      }
    });
  }
  if (changes.deleteRuns !== undefined) checkIds(changes.deleteRuns, 'changes.deleteRuns');
  if (changes.dequeue !== undefined) checkIds(changes.dequeue, 'changes.dequeue');
  if (changes.enqueue !== undefined) {
    checkArray(changes.enqueue, 'changes.enqueue');
    changes.enqueue.forEach((w, i) => {
      const p = `changes.enqueue[${i}]`;
      checkObject(w, p);
      checkString(w.id, `${p}.id`);
      checkString(w.runId, `${p}.runId`);
      checkString(w.kind, `${p}.kind`);
      checkInteger(w.priority, `${p}.priority`, 1, 100);
      checkOptionalTime(w.availableAt, `${p}.availableAt`);
      checkObject(w.payload, `${p}.payload`);
      if (w.lease !== undefined) {
        checkObject(w.lease, `${p}.lease`);
        checkString(w.lease.owner, `${p}.lease.owner`);
        checkInteger(w.lease.leaseMs, `${p}.lease.leaseMs`, 1, Number.MAX_SAFE_INTEGER);
      }
    });
  }
  if (changes.deliveries !== undefined) {
    checkArray(changes.deliveries, 'changes.deliveries');
    changes.deliveries.forEach((d, i) => {
      const p = `changes.deliveries[${i}]`;
      checkObject(d, p);
      checkString(d.id, `${p}.id`);
      checkString(d.endpointId, `${p}.endpointId`);
      checkString(d.eventId, `${p}.eventId`);
      checkString(d.eventType, `${p}.eventType`);
      checkObject(d.event, `${p}.event`);
      if (!deliveryStatuses.has(d.status)) {
        invalid(`${p}.status`, `must be pending, succeeded or failed, got ${describe(d.status)}`);
      }
      checkArray(d.attempts, `${p}.attempts`);
      d.attempts.forEach((a, j) => {
        checkObject(a, `${p}.attempts[${j}]`);
      });
      parseTime(d.nextAttemptAt, `${p}.nextAttemptAt`);
      checkOptionalTime(d.at, `${p}.at`);
    });
  }
}

/** Checks the shape of a patch (not that it fits the snapshot, which only reading shows). */
function checkSnapshotPatch(value: unknown, path: string): void {
  if (!Array.isArray(value)) invalid(path, 'must be an array of patch operations');
  for (let o = 0; o < value.length; o++) {
    const op: unknown = value[o];
    const p = `${path}[${o}]`;
    if (!Array.isArray(op) || op.length < 1 || op.length > 2) {
      invalid(p, 'must be [path, value] or [path]');
    }
    const keys: unknown = op[0];
    if (!Array.isArray(keys) || keys.length === 0) invalid(`${p}[0]`, 'must be a non-empty array');
    for (let i = 0; i < keys.length; i++) {
      const k: unknown = keys[i];
      if (typeof k !== 'string' && !(Number.isInteger(k) && (k as number) >= 0)) {
        invalid(`${p}[0][${i}]`, 'must be a string or a non-negative integer');
      }
    }
    if (op.length === 2 && op[1] === undefined) invalid(`${p}[1]`, 'must be a JSON value');
  }
}
