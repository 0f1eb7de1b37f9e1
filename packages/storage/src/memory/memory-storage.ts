import { type KeysetQuery, keysetCompare, keysetQuery, toPage } from '../internal/keyset-page.ts';
import { revisionsByKey } from '../internal/revisions-by-key.ts';
import {
  duplicateKey,
  leaseHolder,
  leaseLost,
  notOpen,
  revisionConflict,
  throwIfAborted,
} from '../internal/storage-errors.ts';
import { claimableTimes, formatTime, parseTime, timeOr } from '../internal/time.ts';
import {
  checkClaim,
  checkCollection,
  checkIds,
  checkOptionalBoolean,
  checkOptionalCount,
  checkOptionalString,
  checkOptionalTime,
  checkString,
  validateChanges,
} from '../internal/validate.ts';
import type {
  AbortableOptions,
  BlobStore,
  Changes,
  ClaimableTimes,
  ClaimOptions,
  ClaimWorkOptions,
  CollectionName,
  CommitResult,
  DeliveryQuery,
  DeliveryRecord,
  DocumentQuery,
  JsonObject,
  NextClaimableOptions,
  Page,
  RunEventRecord,
  RunQuery,
  RunRecord,
  StorageAdapter,
  StoredDocument,
  WorkItem,
} from '../storage-adapter.ts';
import { COLLECTIONS } from '../storage-adapter.ts';
import type { StorageClock } from '../storage-clock.ts';
import { systemStorageClock } from '../storage-clock.ts';
import { memoryBlobStore } from './memory-blob-store.ts';

/** Options of {@link memoryStorage}. */
export interface MemoryStorageOptions {
  /** Time source for timestamps, leases and availability; defaults to the wall clock. */
  readonly clock?: StorageClock | undefined;
}

interface DocRow {
  readonly seq: number;
  readonly doc: StoredDocument;
}
interface RunRow {
  readonly seq: number;
  readonly run: Omit<RunRecord, 'snapshot'>;
  /**
   * The snapshot as JSON text: written once per commit and parsed on the rare read, where a
   * copy in and a copy out were a quarter of an engine step on this adapter.
   */
  readonly snapshot: string;
}

/** A stored run as a fresh record (its other fields are primitives: a spread copies them). */
function runRecord(row: RunRow): RunRecord {
  return { ...row.run, snapshot: JSON.parse(row.snapshot) as JsonObject };
}
interface WorkRow {
  readonly item: WorkItem;
  readonly availableMs: number;
  readonly leaseMs: number | undefined;
}
interface DeliveryRow {
  readonly seq: number;
  readonly record: DeliveryRecord;
  readonly nextMs: number;
  readonly leaseMs: number | undefined;
}

// Values are stored as their JSON round trip so that the memory adapter keeps exactly what the
// SQLite adapter would (undefined members dropped, dates as strings), and callers keep no reference.
function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function withoutLease<
  T extends { leaseOwner?: string | undefined; leaseExpiresAt?: string | undefined },
>(value: T): T {
  const { leaseOwner: _owner, leaseExpiresAt: _expires, ...rest } = value;
  return rest as T;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * A {@link StorageAdapter} that keeps everything in memory: for tests, examples and the engine's
 * default. Every read and write copies, so callers never share state with the store.
 */
class MemoryStorage implements StorageAdapter {
  readonly name = 'memory';
  readonly blobs: BlobStore;
  readonly #clock: StorageClock;
  #open = false;
  #docSeq = 0;
  #runSeq = 0;
  #workSeq = 0;
  #deliverySeq = 0;
  readonly #documents = new Map<CollectionName, Map<string, DocRow>>(
    COLLECTIONS.map((c) => [c, new Map()]),
  );
  readonly #keys = new Map<CollectionName, Map<string, string>>(
    COLLECTIONS.map((c) => [c, new Map()]),
  );
  readonly #runs = new Map<string, RunRow>();
  readonly #events = new Map<string, RunEventRecord[]>();
  readonly #work = new Map<string, WorkRow>();
  readonly #deliveries = new Map<string, DeliveryRow>();

  constructor(options: MemoryStorageOptions) {
    this.#clock = options.clock ?? systemStorageClock;
    this.blobs = memoryBlobStore((options) => this.#assertOpen(options));
  }

  #assertOpen(options?: AbortableOptions): void {
    if (!this.#open) throw notOpen(this.name);
    throwIfAborted(options);
  }

  #nowMs(): number {
    return this.#clock.now().getTime();
  }

  async open(options?: AbortableOptions): Promise<void> {
    throwIfAborted(options);
    this.#open = true;
  }

  async close(): Promise<void> {
    this.#open = false;
  }

  async commit(changes: Changes, options?: AbortableOptions): Promise<CommitResult> {
    this.#assertOpen(options);
    validateChanges(changes);
    const nowMs = this.#nowMs();
    // Apply in order with an undo log: later parts of a commit see earlier ones (as in SQL), and
    // any error rolls every change back before it reaches the caller.
    const undo: (() => void)[] = [];
    const put = <K, V>(map: Map<K, V>, key: K, value: V | undefined): void => {
      const had = map.has(key);
      const prev = map.get(key);
      undo.push(() => {
        if (had) map.set(key, prev as V);
        else map.delete(key);
      });
      if (value === undefined) map.delete(key);
      else map.set(key, value);
    };
    try {
      return this.#apply(changes, nowMs, put, undo);
    } catch (error) {
      for (let i = undo.length - 1; i >= 0; i--) undo[i]?.();
      throw error;
    }
  }

  #apply(
    changes: Changes,
    nowMs: number,
    put: <K, V>(map: Map<K, V>, key: K, value: V | undefined) => void,
    undo: (() => void)[],
  ): CommitResult {
    const runRevisions = revisionsByKey();
    const documentRevisions = revisionsByKey();

    for (const f of changes.fences ?? []) {
      if ('workId' in f) {
        const item = this.#work.get(f.workId)?.item;
        if (item?.leaseOwner !== f.owner || item.attempts !== f.attempts) {
          throw leaseLost(`work/${f.workId}`, f.owner, leaseHolder(item));
        }
      } else {
        const record = this.#deliveries.get(f.deliveryId)?.record;
        if (record?.leaseOwner !== f.owner) {
          throw leaseLost(`deliveries/${f.deliveryId}`, f.owner, record?.leaseOwner);
        }
      }
    }

    for (const d of changes.deleteDocuments ?? []) {
      const docs = this.#documents.get(d.collection) as Map<string, DocRow>;
      const row = docs.get(d.id);
      if (row === undefined) continue;
      if (row.doc.key !== undefined)
        put(this.#keys.get(d.collection) as Map<string, string>, row.doc.key, undefined);
      put(docs, d.id, undefined);
    }

    changes.documents?.forEach((d, i) => {
      const docs = this.#documents.get(d.collection) as Map<string, DocRow>;
      const keys = this.#keys.get(d.collection) as Map<string, string>;
      const row = docs.get(d.id);
      const target = `${d.collection}/${d.id}`;
      if (d.expectedRevision !== undefined) {
        const ok =
          d.expectedRevision === 0 ? row === undefined : row?.doc.revision === d.expectedRevision;
        if (!ok) throw revisionConflict(target, d.expectedRevision, row?.doc.revision);
      }
      if (d.key !== undefined) {
        const owner = keys.get(d.key);
        if (owner !== undefined && owner !== d.id)
          throw duplicateKey(d.collection, d.key, d.id, owner);
      }
      const at = formatTime(timeOr(d.at, nowMs, `changes.documents[${i}].at`));
      const doc: StoredDocument = {
        collection: d.collection,
        id: d.id,
        ...optional('parentId', d.parentId),
        ...optional('secondaryId', d.secondaryId),
        ...optional('key', d.key),
        ...optional('name', d.name),
        ...optional('blobKey', d.blobKey),
        data: jsonCopy(d.data),
        revision: (row?.doc.revision ?? 0) + 1,
        createdAt: row?.doc.createdAt ?? at,
        updatedAt: at,
      };
      if (row?.doc.key !== undefined && row.doc.key !== d.key) put(keys, row.doc.key, undefined);
      if (d.key !== undefined) put(keys, d.key, d.id);
      put(docs, d.id, { seq: row?.seq ?? ++this.#docSeq, doc });
      documentRevisions[target] = doc.revision;
    });

    for (const id of changes.deleteRuns ?? []) {
      if (this.#runs.has(id)) put(this.#runs, id, undefined);
      if (this.#events.has(id)) put(this.#events, id, undefined);
      for (const [workId, w] of this.#work)
        if (w.item.runId === id) put(this.#work, workId, undefined);
    }

    changes.runs?.forEach((r, i) => {
      const row = this.#runs.get(r.id);
      const ok =
        r.expectedRevision === 0 ? row === undefined : row?.run.revision === r.expectedRevision;
      if (!ok) throw revisionConflict(`runs/${r.id}`, r.expectedRevision, row?.run.revision);
      const atMs = timeOr(r.at, nowMs, `changes.runs[${i}].at`);
      const at = formatTime(atMs);
      const revision = r.expectedRevision + 1;
      const run: Omit<RunRecord, 'snapshot'> = {
        id: r.id,
        kind: r.kind,
        ...optional('workflowId', r.workflowId),
        ...optional('batchId', r.batchId),
        status: r.status,
        active: r.active,
        priority: r.priority,
        revision,
        createdAt: row?.run.createdAt ?? at,
        updatedAt: at,
      };
      const snapshot = JSON.stringify(r.snapshot);
      put(this.#runs, r.id, { seq: row?.seq ?? ++this.#runSeq, run, snapshot });
      if (r.events !== undefined && r.events.length > 0) {
        let log = this.#events.get(r.id);
        if (log === undefined) {
          log = [];
          put(this.#events, r.id, log);
        }
        const events = log;
        const before = events.length;
        undo.push(() => {
          events.length = before;
        });
        for (const e of r.events) {
          events.push({
            runId: r.id,
            seq: events.length + 1,
            type: e.type,
            data: jsonCopy(e.data),
            revision,
            at,
          });
        }
      }
      runRevisions[r.id] = revision;
    });

    for (const id of changes.dequeue ?? []) {
      if (this.#work.has(id)) put(this.#work, id, undefined);
    }

    changes.enqueue?.forEach((w, i) => {
      if (this.#work.has(w.id)) return;
      const availableMs = timeOr(w.availableAt, nowMs, `changes.enqueue[${i}].availableAt`);
      const leaseMs = w.lease === undefined ? undefined : nowMs + w.lease.leaseMs;
      const item: WorkItem = {
        id: w.id,
        runId: w.runId,
        kind: w.kind,
        priority: w.priority,
        seq: ++this.#workSeq,
        availableAt: formatTime(availableMs),
        payload: jsonCopy(w.payload),
        attempts: w.lease === undefined ? 0 : 1,
        ...(w.lease === undefined || leaseMs === undefined
          ? {}
          : { leaseOwner: w.lease.owner, leaseExpiresAt: formatTime(leaseMs) }),
      };
      put(this.#work, w.id, { item, availableMs, leaseMs });
    });

    changes.deliveries?.forEach((d, i) => {
      const row = this.#deliveries.get(d.id);
      const at = formatTime(timeOr(d.at, nowMs, `changes.deliveries[${i}].at`));
      const nextMs = parseTime(d.nextAttemptAt, `changes.deliveries[${i}].nextAttemptAt`);
      const record: DeliveryRecord = {
        id: d.id,
        endpointId: d.endpointId,
        eventId: d.eventId,
        eventType: d.eventType,
        event: jsonCopy(d.event),
        status: d.status,
        attempts: jsonCopy(d.attempts),
        nextAttemptAt: formatTime(nextMs),
        createdAt: row?.record.createdAt ?? at,
        updatedAt: at,
      };
      put(this.#deliveries, d.id, {
        seq: row?.seq ?? ++this.#deliverySeq,
        record,
        nextMs,
        leaseMs: undefined,
      });
    });

    return { runRevisions, documentRevisions };
  }

  async getDocument(
    collection: CollectionName,
    id: string,
    options?: AbortableOptions,
  ): Promise<StoredDocument | undefined> {
    this.#assertOpen(options);
    checkCollection(collection, 'collection');
    checkString(id, 'id');
    const row = this.#documents.get(collection)?.get(id);
    return row === undefined ? undefined : structuredClone(row.doc);
  }

  async getDocumentByKey(
    collection: CollectionName,
    key: string,
    options?: AbortableOptions,
  ): Promise<StoredDocument | undefined> {
    this.#assertOpen(options);
    checkCollection(collection, 'collection');
    checkString(key, 'key');
    const id = this.#keys.get(collection)?.get(key);
    const row = id === undefined ? undefined : this.#documents.get(collection)?.get(id);
    return row === undefined ? undefined : structuredClone(row.doc);
  }

  async listDocuments(
    collection: CollectionName,
    query: DocumentQuery = {},
  ): Promise<Page<StoredDocument>> {
    this.#assertOpen(query);
    checkCollection(collection, 'collection');
    checkOptionalString(query.parentId, 'parentId');
    checkOptionalString(query.secondaryId, 'secondaryId');
    if (query.nameContains !== undefined && typeof query.nameContains !== 'string') {
      checkString(query.nameContains, 'nameContains');
    }
    const { parentId, secondaryId, nameContains } = query;
    const q = keysetQuery(
      `documents:${collection}`,
      { parentId, secondaryId, nameContains },
      query,
    );
    const needle = nameContains?.toLowerCase();
    const rows = this.#select(
      (this.#documents.get(collection) as Map<string, DocRow>).values(),
      q,
      (r) => ({ seq: r.seq, updatedAt: r.doc.updatedAt }),
      ({ doc }) =>
        (parentId === undefined || doc.parentId === parentId) &&
        (secondaryId === undefined || doc.secondaryId === secondaryId) &&
        (needle === undefined || doc.name?.toLowerCase().includes(needle) === true),
    );
    return toPage(
      rows,
      q,
      (r) => r.seq,
      (r) => structuredClone(r.doc),
    );
  }

  async getRun(id: string, options?: AbortableOptions): Promise<RunRecord | undefined> {
    this.#assertOpen(options);
    checkString(id, 'id');
    const row = this.#runs.get(id);
    return row === undefined ? undefined : runRecord(row);
  }

  async listRuns(query: RunQuery = {}): Promise<Page<RunRecord>> {
    this.#assertOpen(query);
    const { kind, workflowId, batchId, status, active } = query;
    checkOptionalString(kind, 'kind');
    checkOptionalString(workflowId, 'workflowId');
    checkOptionalString(batchId, 'batchId');
    checkOptionalString(status, 'status');
    checkOptionalBoolean(active, 'active');
    const q = keysetQuery('runs', { kind, workflowId, batchId, status, active }, query);
    const rows = this.#select(
      this.#runs.values(),
      q,
      (r) => ({ seq: r.seq, updatedAt: r.run.updatedAt }),
      ({ run }) =>
        (kind === undefined || run.kind === kind) &&
        (workflowId === undefined || run.workflowId === workflowId) &&
        (batchId === undefined || run.batchId === batchId) &&
        (status === undefined || run.status === status) &&
        (active === undefined || run.active === active),
    );
    return toPage(rows, q, (r) => r.seq, runRecord);
  }

  async listRunEvents(
    runId: string,
    options: AbortableOptions & { afterSeq?: number; limit?: number } = {},
  ): Promise<readonly RunEventRecord[]> {
    this.#assertOpen(options);
    checkString(runId, 'runId');
    checkOptionalCount(options.afterSeq, 'afterSeq', 0);
    checkOptionalCount(options.limit, 'limit', 1);
    const log = this.#events.get(runId) ?? [];
    const from = options.afterSeq ?? 0;
    const to = options.limit === undefined ? log.length : from + options.limit;
    return structuredClone(log.slice(from, to));
  }

  async claimWork(options: ClaimWorkOptions): Promise<readonly WorkItem[]> {
    this.#assertOpen(options);
    checkClaim(options);
    if (options.kinds !== undefined) checkIds(options.kinds, 'kinds');
    const nowMs = options.now === undefined ? this.#nowMs() : parseTime(options.now, 'now');
    const kinds = options.kinds === undefined ? undefined : new Set(options.kinds);
    const candidates = [...this.#work.values()]
      .filter(
        (w) =>
          w.availableMs <= nowMs &&
          (w.leaseMs === undefined || w.leaseMs <= nowMs) &&
          (kinds === undefined || kinds.has(w.item.kind)),
      )
      .sort((a, b) => a.item.priority - b.item.priority || a.item.seq - b.item.seq)
      .slice(0, options.limit);
    const leaseMs = nowMs + options.leaseMs;
    return candidates.map((w) => {
      const item: WorkItem = {
        ...w.item,
        attempts: w.item.attempts + 1,
        leaseOwner: options.owner,
        leaseExpiresAt: formatTime(leaseMs),
      };
      this.#work.set(item.id, { ...w, item, leaseMs });
      return structuredClone(item);
    });
  }

  async renewWork(
    ids: readonly string[],
    options: { owner: string; leaseMs: number; now?: string } & AbortableOptions,
  ): Promise<readonly string[]> {
    this.#assertOpen(options);
    checkIds(ids, 'ids');
    checkString(options.owner, 'owner');
    checkClaim({ owner: options.owner, limit: 1, leaseMs: options.leaseMs, now: options.now });
    const nowMs = options.now === undefined ? this.#nowMs() : parseTime(options.now, 'now');
    const leaseMs = nowMs + options.leaseMs;
    const held: string[] = [];
    for (const id of ids) {
      const w = this.#work.get(id);
      if (w === undefined || w.item.leaseOwner !== options.owner) continue;
      this.#work.set(id, {
        ...w,
        item: { ...w.item, leaseExpiresAt: formatTime(leaseMs) },
        leaseMs,
      });
      held.push(id);
    }
    return held;
  }

  async releaseWork(
    ids: readonly string[],
    options: { owner: string; availableAt?: string } & AbortableOptions,
  ): Promise<void> {
    this.#assertOpen(options);
    checkIds(ids, 'ids');
    checkString(options.owner, 'owner');
    checkOptionalTime(options.availableAt, 'availableAt');
    const availableMs =
      options.availableAt === undefined ? undefined : parseTime(options.availableAt, 'availableAt');
    for (const id of ids) {
      const w = this.#work.get(id);
      if (w === undefined || w.item.leaseOwner !== options.owner) continue;
      const ms = availableMs ?? w.availableMs;
      this.#work.set(id, {
        item: { ...withoutLease(w.item), availableAt: formatTime(ms) },
        availableMs: ms,
        leaseMs: undefined,
      });
    }
  }

  async listWork(
    options: AbortableOptions & { runId?: string } = {},
  ): Promise<readonly WorkItem[]> {
    this.#assertOpen(options);
    checkOptionalString(options.runId, 'runId');
    return [...this.#work.values()]
      .filter((w) => options.runId === undefined || w.item.runId === options.runId)
      .sort((a, b) => a.item.priority - b.item.priority || a.item.seq - b.item.seq)
      .map((w) => structuredClone(w.item));
  }

  async claimDeliveries(options: ClaimOptions): Promise<readonly DeliveryRecord[]> {
    this.#assertOpen(options);
    checkClaim(options);
    const nowMs = options.now === undefined ? this.#nowMs() : parseTime(options.now, 'now');
    const candidates = [...this.#deliveries.values()]
      .filter(
        (d) =>
          d.record.status === 'pending' &&
          d.nextMs <= nowMs &&
          (d.leaseMs === undefined || d.leaseMs <= nowMs),
      )
      .sort((a, b) => a.nextMs - b.nextMs || a.seq - b.seq)
      .slice(0, options.limit);
    const leaseMs = nowMs + options.leaseMs;
    return candidates.map((d) => {
      const record: DeliveryRecord = {
        ...d.record,
        leaseOwner: options.owner,
        leaseExpiresAt: formatTime(leaseMs),
      };
      this.#deliveries.set(record.id, { ...d, record, leaseMs });
      return structuredClone(record);
    });
  }

  async getDelivery(id: string, options?: AbortableOptions): Promise<DeliveryRecord | undefined> {
    this.#assertOpen(options);
    checkString(id, 'id');
    const row = this.#deliveries.get(id);
    return row === undefined ? undefined : structuredClone(row.record);
  }

  async listDeliveries(query: DeliveryQuery = {}): Promise<Page<DeliveryRecord>> {
    this.#assertOpen(query);
    const { endpointId, eventId, status } = query;
    checkOptionalString(endpointId, 'endpointId');
    checkOptionalString(eventId, 'eventId');
    checkOptionalString(status, 'status');
    const q = keysetQuery('deliveries', { endpointId, eventId, status }, query);
    const rows = this.#select(
      this.#deliveries.values(),
      q,
      (r) => ({ seq: r.seq, updatedAt: r.record.updatedAt }),
      ({ record }) =>
        (endpointId === undefined || record.endpointId === endpointId) &&
        (eventId === undefined || record.eventId === eventId) &&
        (status === undefined || record.status === status),
    );
    return toPage(
      rows,
      q,
      (r) => r.seq,
      (r) => structuredClone(r.record),
    );
  }

  async nextClaimableAt(options: NextClaimableOptions = {}): Promise<ClaimableTimes> {
    this.#assertOpen(options);
    if (options.kinds !== undefined) checkIds(options.kinds, 'kinds');
    const kinds = options.kinds === undefined ? undefined : new Set(options.kinds);
    let work = Number.POSITIVE_INFINITY;
    for (const w of this.#work.values()) {
      if (kinds !== undefined && !kinds.has(w.item.kind)) continue;
      work = Math.min(work, Math.max(w.availableMs, w.leaseMs ?? 0));
    }
    let deliveries = Number.POSITIVE_INFINITY;
    for (const d of this.#deliveries.values()) {
      if (d.record.status !== 'pending') continue;
      deliveries = Math.min(deliveries, Math.max(d.nextMs, d.leaseMs ?? 0));
    }
    return claimableTimes(work, deliveries);
  }

  /**
   * Filters, orders by the query's key (seq, or updatedAt then seq) and cuts one row past the
   * page (keyset pagination).
   */
  #select<R>(
    rows: Iterable<R>,
    q: KeysetQuery,
    keyOf: (row: R) => { readonly seq: number; readonly updatedAt: string },
    keep: (row: R) => boolean,
  ): R[] {
    const after =
      q.afterSeq === undefined ? undefined : { seq: q.afterSeq, updatedAt: q.afterUpdatedAt ?? '' };
    const selected = [...rows].filter(
      (r) => (after === undefined || keysetCompare(q, after, keyOf(r)) < 0) && keep(r),
    );
    selected.sort((a, b) => keysetCompare(q, keyOf(a), keyOf(b)));
    return selected.slice(0, q.pageSize + 1);
  }
}

/**
 * Creates an in-memory {@link StorageAdapter}. Call `open()` before use.
 *
 * @example
 * const storage = memoryStorage();
 * await storage.open();
 * await storage.commit({ documents: [{ collection: 'workflows', id: 'workflow_1', data: {} }] });
 */
export function memoryStorage(options: MemoryStorageOptions = {}): StorageAdapter {
  return new MemoryStorage(options);
}
