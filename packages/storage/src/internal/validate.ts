import { StorageError } from '../errors.ts';
import type { Changes, ClaimOptions, CollectionName } from '../storage-adapter.ts';
import { COLLECTIONS } from '../storage-adapter.ts';
import { fieldPath, parseTime } from './time.ts';

const collections: ReadonlySet<string> = new Set(COLLECTIONS);
const deliveryStatuses: ReadonlySet<string> = new Set(['pending', 'succeeded', 'failed']);

/** Throws `INVALID_ARGUMENT` naming the offending path (`path.field` with a field). */
export function invalid(path: string, reason: string, field?: string): never {
  const where = fieldPath(path, field);
  throw new StorageError('INVALID_ARGUMENT', `${where} ${reason}`, { details: { path: where } });
}

// The checks name the value's path in two parts, `path` and an optional `field` under it, joined
// only when the check fails (see `fieldPath`).

/** Validates a non-empty string. */
export function checkString(value: unknown, path: string, field?: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) {
    invalid(path, `must be a non-empty string, got ${describe(value)}`, field);
  }
}

function checkOptionalString(value: unknown, path: string, field?: string): void {
  if (value !== undefined) checkString(value, path, field);
}

function checkObject(value: unknown, path: string, field?: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    invalid(path, `must be a JSON object, got ${describe(value)}`, field);
  }
}

function checkArray(
  value: unknown,
  path: string,
  field?: string,
): asserts value is readonly unknown[] {
  if (!Array.isArray(value)) invalid(path, `must be an array, got ${describe(value)}`, field);
}

function checkInteger(value: unknown, min: number, max: number, path: string, field?: string) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    invalid(path, `must be an integer from ${min} to ${max}, got ${describe(value)}`, field);
  }
}

function checkFinite(value: unknown, path: string, field?: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    invalid(path, `must be a finite number, got ${describe(value)}`, field);
  }
}

function checkOptionalTime(value: unknown, path: string, field?: string): void {
  if (value !== undefined) parseTime(value, path, field);
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
export function checkCollection(
  value: unknown,
  path: string,
  field?: string,
): asserts value is CollectionName {
  if (typeof value !== 'string' || !collections.has(value)) {
    invalid(path, `must be one of ${COLLECTIONS.join(', ')}, got ${describe(value)}`, field);
  }
}

/** Validates a page size and applies the default of 10. */
export function checkPageSize(value: unknown): number {
  if (value === undefined) return 10;
  checkInteger(value, 1, 1000, 'pageSize');
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
  checkInteger(options.limit, 1, 1000, 'limit');
  checkInteger(options.leaseMs, 1, Number.MAX_SAFE_INTEGER, 'leaseMs');
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
export function checkOptionalCount(value: unknown, path: string, min: number, field?: string) {
  if (value !== undefined) checkInteger(value, min, Number.MAX_SAFE_INTEGER, path, field);
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
      checkString(f.owner, p, 'owner');
      if ('workId' in f) {
        checkString(f.workId, p, 'workId');
        checkInteger(f.attempts, 1, Number.MAX_SAFE_INTEGER, p, 'attempts');
      } else if ('deliveryId' in f) checkString(f.deliveryId, p, 'deliveryId');
      else invalid(p, 'must name a workId or a deliveryId');
    });
  }
  if (changes.documents !== undefined) {
    checkArray(changes.documents, 'changes.documents');
    changes.documents.forEach((d, i) => {
      const p = `changes.documents[${i}]`;
      checkObject(d, p);
      checkCollection(d.collection, p, 'collection');
      checkString(d.id, p, 'id');
      checkOptionalString(d.parentId, p, 'parentId');
      checkOptionalString(d.secondaryId, p, 'secondaryId');
      checkOptionalString(d.key, p, 'key');
      if (d.name !== undefined && typeof d.name !== 'string')
        invalid(p, 'must be a string', 'name');
      checkOptionalString(d.blobKey, p, 'blobKey');
      checkObject(d.data, p, 'data');
      checkOptionalCount(d.expectedRevision, p, 0, 'expectedRevision');
      checkOptionalTime(d.at, p, 'at');
    });
  }
  if (changes.deleteDocuments !== undefined) {
    checkArray(changes.deleteDocuments, 'changes.deleteDocuments');
    changes.deleteDocuments.forEach((d, i) => {
      const p = `changes.deleteDocuments[${i}]`;
      checkObject(d, p);
      checkCollection(d.collection, p, 'collection');
      checkString(d.id, p, 'id');
    });
  }
  if (changes.runs !== undefined) {
    checkArray(changes.runs, 'changes.runs');
    changes.runs.forEach((r, i) => {
      const p = `changes.runs[${i}]`;
      checkObject(r, p);
      checkString(r.id, p, 'id');
      checkString(r.kind, p, 'kind');
      checkOptionalString(r.workflowId, p, 'workflowId');
      checkOptionalString(r.batchId, p, 'batchId');
      checkString(r.status, p, 'status');
      if (typeof r.active !== 'boolean') invalid(p, 'must be a boolean', 'active');
      if (r.settles !== undefined && typeof r.settles !== 'boolean') {
        invalid(p, 'must be a boolean', 'settles');
      }
      checkFinite(r.priority, p, 'priority');
      checkObject(r.snapshot, p, 'snapshot');
      checkInteger(r.expectedRevision, 0, Number.MAX_SAFE_INTEGER, p, 'expectedRevision');
      checkOptionalTime(r.at, p, 'at');
      if (r.patch !== undefined) {
        if (r.expectedRevision === 0)
          invalid(p, 'is only for a run that exists (expectedRevision above 0)', 'patch');
        checkSnapshotPatch(r.patch, p, 'patch');
      }
      if (r.events !== undefined) {
        checkArray(r.events, p, 'events');
        r.events.forEach((e, j) => {
          const at = `${p}.events[${j}]`;
          checkObject(e, at);
          checkString(e.type, at, 'type');
          checkObject(e.data, at, 'data');
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
      checkString(w.id, p, 'id');
      checkString(w.runId, p, 'runId');
      checkString(w.kind, p, 'kind');
      checkInteger(w.priority, 1, 100, p, 'priority');
      checkOptionalTime(w.availableAt, p, 'availableAt');
      checkObject(w.payload, p, 'payload');
      if (w.lease !== undefined) {
        checkObject(w.lease, p, 'lease');
        checkString(w.lease.owner, p, 'lease.owner');
        checkInteger(w.lease.leaseMs, 1, Number.MAX_SAFE_INTEGER, p, 'lease.leaseMs');
      }
    });
  }
  if (changes.deliveries !== undefined) {
    checkArray(changes.deliveries, 'changes.deliveries');
    changes.deliveries.forEach((d, i) => {
      const p = `changes.deliveries[${i}]`;
      checkObject(d, p);
      checkString(d.id, p, 'id');
      checkString(d.endpointId, p, 'endpointId');
      checkString(d.eventId, p, 'eventId');
      checkString(d.eventType, p, 'eventType');
      checkObject(d.event, p, 'event');
      if (!deliveryStatuses.has(d.status)) {
        invalid(p, `must be pending, succeeded or failed, got ${describe(d.status)}`, 'status');
      }
      checkArray(d.attempts, p, 'attempts');
      d.attempts.forEach((a, j) => {
        checkObject(a, `${p}.attempts[${j}]`);
      });
      parseTime(d.nextAttemptAt, p, 'nextAttemptAt');
      checkOptionalTime(d.at, p, 'at');
    });
  }
}

/** Checks the shape of a patch (not that it fits the snapshot, which only reading shows). */
function checkSnapshotPatch(value: unknown, path: string, field: string): void {
  if (!Array.isArray(value)) invalid(path, 'must be an array of patch operations', field);
  // An operation's path, made only to report it: `…patch[o]` and what follows.
  const at = (o: number, rest = '') => `${fieldPath(path, field)}[${o}]${rest}`;
  for (let o = 0; o < value.length; o++) {
    const op: unknown = value[o];
    if (!Array.isArray(op) || op.length < 1 || op.length > 2) {
      invalid(at(o), 'must be [path, value] or [path]');
    }
    const keys: unknown = op[0];
    if (!Array.isArray(keys) || keys.length === 0)
      invalid(at(o, '[0]'), 'must be a non-empty array');
    for (let i = 0; i < keys.length; i++) {
      const k: unknown = keys[i];
      if (typeof k !== 'string' && !(Number.isInteger(k) && (k as number) >= 0)) {
        invalid(at(o, `[0][${i}]`), 'must be a string or a non-negative integer');
      }
    }
    if (op.length === 2 && op[1] === undefined) invalid(at(o, '[1]'), 'must be a JSON value');
  }
}
