import BetterSqlite3 from 'better-sqlite3';
import { StorageError } from '../errors.ts';
import type { KeysetQuery } from '../internal/keyset-page.ts';
import { keysetQuery, toPage } from '../internal/keyset-page.ts';
import {
  duplicateKey,
  notOpen,
  revisionConflict,
  throwIfAborted,
} from '../internal/storage-errors.ts';
import { formatTime, parseTime, timeOr } from '../internal/time.ts';
import {
  checkClaim,
  checkCollection,
  checkIds,
  checkOptionalBoolean,
  checkOptionalCount,
  checkOptionalString,
  checkOptionalTime,
  checkString,
  invalid,
  validateChanges,
} from '../internal/validate.ts';
import { checkBlobPut } from '../memory/memory-blob-store.ts';
import type {
  AbortableOptions,
  BlobStore,
  Changes,
  ClaimOptions,
  ClaimWorkOptions,
  CollectionName,
  CommitResult,
  DeliveryQuery,
  DeliveryRecord,
  DocumentQuery,
  Durability,
  Page,
  RunEventRecord,
  RunQuery,
  RunRecord,
  StorageAdapter,
  StoredDocument,
  WorkItem,
} from '../storage-adapter.ts';
import type { StorageClock } from '../storage-clock.ts';
import { systemStorageClock } from '../storage-clock.ts';
import { keysetSelect } from './keyset-select.ts';
import { migrate, recordedSchemaVersion } from './migrations.ts';
import { type SerializedChanges, serializeChanges } from './serialized-changes.ts';
import type { DeliveryRow, DocumentRow, RunRow } from './sqlite-rows.ts';
import {
  deliveryFromRow,
  documentFromRow,
  eventsFromRow,
  runFromRow,
  workFromRow,
} from './sqlite-rows.ts';
import type { SqliteStatements } from './sqlite-statements.ts';
import { prepareStatements } from './sqlite-statements.ts';

/** Options of {@link sqliteStorage}. */
export interface SqliteStorageOptions {
  /** Database file; `':memory:'` for a private in-memory database. */
  readonly path: string;
  /**
   * `normal` (default): WAL with synchronous=NORMAL, survives a crash of the process.
   * `full`: synchronous=FULL, every commit is fsynced and survives power loss.
   * `batched`: group commit; commits of one tick share one transaction (synchronous=NORMAL:
   *   the guarantee of `normal`, fewer transactions).
   */
  readonly durability?: Durability | undefined;
  /** Time source for timestamps, leases and availability; defaults to the wall clock. */
  readonly clock?: StorageClock | undefined;
  /** How long to wait for a lock held by another connection (default 5000 ms). */
  readonly busyTimeoutMs?: number | undefined;
  /**
   * Bytes of the database file read through a memory map instead of read calls (default
   * 256 MiB; 0 turns it off). Address space, not memory: pages are shared with the OS cache.
   */
  readonly mmapSizeBytes?: number | undefined;
  /**
   * WAL pages after which a commit copies the WAL back into the database (default 10,000, about
   * 40 MB; 0 never, for callers that checkpoint themselves). SQLite's default of 1,000 makes
   * every 100th step commit pay a checkpoint of pages that are rewritten again moments later.
   */
  readonly walCheckpointPages?: number | undefined;
}

/** What an open SQLite adapter reports about its database (for operations and tests). */
export interface SqliteStorageInfo {
  readonly path: string;
  readonly durability: Durability;
  /** `wal` for files, `memory` for `':memory:'`. */
  readonly journalMode: string;
  /** SQLite's `PRAGMA synchronous`: 1 = NORMAL, 2 = FULL. */
  readonly synchronous: number;
  /** The schema version recorded in `schema_migrations`. */
  readonly schemaVersion: number;
  /** SQLite's `PRAGMA mmap_size`, in bytes. */
  readonly mmapSizeBytes: number;
  /** SQLite's `PRAGMA wal_autocheckpoint`, in pages. */
  readonly walCheckpointPages: number;
}

/** The SQLite adapter: the contract plus an inspection method. */
export interface SqliteStorageAdapter extends StorageAdapter {
  readonly durability: Durability;
  /** Reports the database's settings; throws `NOT_OPEN` when closed. */
  info(): SqliteStorageInfo;
}

type Statement<R = unknown> = BetterSqlite3.Statement<unknown[], R>;

type Outcome = { ok: true; result: CommitResult } | { ok: false; error: unknown };

interface PendingCommit {
  readonly changes: SerializedChanges;
  readonly nowMs: number;
  readonly resolve: (result: CommitResult) => void;
  readonly reject: (error: unknown) => void;
}

interface Open {
  readonly db: BetterSqlite3.Database;
  readonly s: SqliteStatements;
  readonly commitTx: (changes: SerializedChanges, nowMs: number) => CommitResult;
  readonly txControl: {
    readonly begin: Statement;
    readonly commit: Statement;
    readonly rollback: Statement;
    readonly savepoint: Statement;
    readonly release: Statement;
    readonly rollbackTo: Statement;
  };
}

const DURABILITIES: readonly Durability[] = ['full', 'normal', 'batched'];
const RETRYABLE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT']);

/** Wraps driver errors in `DATABASE_ERROR`; contract errors pass through. */
function toStorageError(error: unknown, opening = false): unknown {
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

function nullable<T>(value: T | undefined): T | null {
  return value === undefined ? null : value;
}

/** A {@link StorageAdapter} over one SQLite file (better-sqlite3, WAL). */
class SqliteStorage implements SqliteStorageAdapter {
  readonly name = 'sqlite';
  readonly blobs: BlobStore;
  readonly durability: Durability;
  readonly #path: string;
  readonly #clock: StorageClock;
  readonly #busyTimeoutMs: number;
  readonly #mmapSizeBytes: number;
  readonly #walCheckpointPages: number;
  #open: Open | undefined;
  readonly #listStatements = new Map<string, Statement>();
  #indexedUpdates: (Statement | undefined)[] = [];
  #docSeq = 0;
  #runSeq = 0;
  #workSeq = 0;
  #deliverySeq = 0;
  #batch: PendingCommit[] = [];
  #flushTimer: NodeJS.Immediate | undefined;

  constructor(options: SqliteStorageOptions) {
    if (typeof options !== 'object' || options === null) invalid('options', 'must be an object');
    checkString(options.path, 'path');
    const durability = options.durability ?? 'normal';
    if (!DURABILITIES.includes(durability)) {
      invalid(
        'durability',
        `must be one of ${DURABILITIES.join(', ')}, got ${JSON.stringify(durability)}`,
      );
    }
    this.#path = options.path;
    this.durability = durability;
    this.#clock = options.clock ?? systemStorageClock;
    this.#busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    checkOptionalCount(options.mmapSizeBytes, 'mmapSizeBytes', 0);
    checkOptionalCount(options.walCheckpointPages, 'walCheckpointPages', 0);
    this.#mmapSizeBytes = options.mmapSizeBytes ?? 256 * 1024 * 1024;
    this.#walCheckpointPages = options.walCheckpointPages ?? 10_000;
    this.blobs = this.#blobStore();
  }

  #get(options?: AbortableOptions): Open {
    if (this.#open === undefined) throw notOpen(this.name);
    throwIfAborted(options);
    return this.#open;
  }

  async open(options?: AbortableOptions): Promise<void> {
    throwIfAborted(options);
    if (this.#open !== undefined) return;
    let db: BetterSqlite3.Database | undefined;
    try {
      db = new BetterSqlite3(this.#path);
      db.pragma('journal_mode = WAL');
      // batched promises what normal promises (a process crash loses no resolved commit) with
      // fewer transactions; FULL's fsync per group made it slower than normal (docs/decisions).
      db.pragma(`synchronous = ${this.durability === 'full' ? 'FULL' : 'NORMAL'}`);
      db.pragma(`busy_timeout = ${this.#busyTimeoutMs}`);
      db.pragma(`mmap_size = ${this.#mmapSizeBytes}`);
      // Group commit puts each commit in a savepoint; its sub-journal in a temp file doubled
      // the cost of a batched step commit.
      db.pragma('temp_store = MEMORY');
      db.pragma(`wal_autocheckpoint = ${this.#walCheckpointPages}`);
      // After a checkpoint the WAL is reused from its start; this truncates a WAL that a burst
      // grew beyond the checkpoint size back to it.
      db.pragma(`journal_size_limit = ${Math.max(this.#walCheckpointPages, 1000) * 4096}`);
      migrate(db, this.#path);
      const s = prepareStatements(db);
      const seq = (name: 'documents' | 'runs', max: number) =>
        Math.max(max, s.sequenceGet.get(name)?.value ?? 0);
      this.#docSeq = seq('documents', s.maxSeq.documents.get()?.seq ?? 0);
      this.#runSeq = seq('runs', s.maxSeq.runs.get()?.seq ?? 0);
      this.#workSeq = s.maxSeq.work.get()?.seq ?? 0;
      this.#deliverySeq = s.maxSeq.deliveries.get()?.seq ?? 0;
      const tx = db.transaction((changes: SerializedChanges, nowMs: number) =>
        this.#apply(changes, nowMs),
      );
      this.#listStatements.clear();
      this.#indexedUpdates = [];
      this.#open = {
        db,
        s,
        commitTx: (changes, nowMs) => tx.immediate(changes, nowMs),
        txControl: {
          begin: db.prepare('BEGIN IMMEDIATE'),
          commit: db.prepare('COMMIT'),
          rollback: db.prepare('ROLLBACK'),
          savepoint: db.prepare('SAVEPOINT docflow_commit'),
          release: db.prepare('RELEASE docflow_commit'),
          rollbackTo: db.prepare('ROLLBACK TO docflow_commit'),
        },
      };
    } catch (error) {
      db?.close();
      throw toStorageError(error, true);
    }
  }

  info(): SqliteStorageInfo {
    const { db } = this.#get();
    return {
      path: this.#path,
      durability: this.durability,
      journalMode: String(db.pragma('journal_mode', { simple: true })),
      synchronous: Number(db.pragma('synchronous', { simple: true })),
      schemaVersion: recordedSchemaVersion(db),
      mmapSizeBytes: Number(db.pragma('mmap_size', { simple: true })),
      walCheckpointPages: Number(db.pragma('wal_autocheckpoint', { simple: true })),
    };
  }

  async close(): Promise<void> {
    const open = this.#open;
    if (open === undefined) return;
    if (this.#flushTimer !== undefined) {
      clearImmediate(this.#flushTimer);
      this.#flushTimer = undefined;
    }
    this.#flush();
    this.#open = undefined;
    open.db.close();
  }

  /** Applies one commit inside an open transaction; throws to roll it back. */
  #apply(serialized: SerializedChanges, nowMs: number): CommitResult {
    const { s } = this.#get();
    const changes = serialized.changes;
    const runRevisions: Record<string, number> = {};
    const documentRevisions: Record<string, number> = {};

    if (changes.deleteDocuments !== undefined && changes.deleteDocuments.length > 0) {
      let deleted = false;
      for (const d of changes.deleteDocuments)
        deleted = s.docDelete.run(d.collection, d.id).changes > 0 || deleted;
      if (deleted) s.sequenceSave.run('documents', this.#docSeq);
    }

    const documents = changes.documents;
    if (documents !== undefined) {
      for (let i = 0; i < documents.length; i++) {
        const d = documents[i] as (typeof documents)[number];
        const meta = s.docMeta.get(d.collection, d.id);
        const target = `${d.collection}/${d.id}`;
        if (d.expectedRevision !== undefined) {
          const ok =
            d.expectedRevision === 0 ? meta === undefined : meta?.revision === d.expectedRevision;
          if (!ok) throw revisionConflict(target, d.expectedRevision, meta?.revision);
        }
        if (d.key !== undefined && d.key !== meta?.key) {
          const owner = s.docIdByKey.get(d.collection, d.key);
          if (owner !== undefined && owner.id !== d.id)
            throw duplicateKey(d.collection, d.key, d.id, owner.id);
        }
        const at = formatTime(timeOr(d.at, nowMs, `changes.documents[${i}].at`));
        const data = serialized.documentData[i] as string;
        const name = nullable(d.name);
        const folded = d.name === undefined ? null : d.name.toLowerCase();
        if (meta === undefined) {
          s.docInsert.run(
            d.collection,
            d.id,
            nullable(d.parentId),
            nullable(d.secondaryId),
            nullable(d.key),
            name,
            folded,
            nullable(d.blobKey),
            data,
            at,
            at,
            ++this.#docSeq,
          );
          documentRevisions[target] = 1;
        } else {
          const revision = meta.revision + 1;
          s.docUpdate.run(
            nullable(d.parentId),
            nullable(d.secondaryId),
            nullable(d.key),
            name,
            folded,
            nullable(d.blobKey),
            data,
            revision,
            at,
            d.collection,
            d.id,
          );
          documentRevisions[target] = revision;
        }
      }
    }

    if (changes.deleteRuns !== undefined && changes.deleteRuns.length > 0) {
      let deleted = false;
      for (const id of changes.deleteRuns) {
        deleted = s.runDelete.run(id).changes > 0 || deleted;
        s.eventsDelete.run(id);
        s.workDeleteByRun.run(id);
        s.workLeasedDeleteByRun.run(id);
      }
      if (deleted) s.sequenceSave.run('runs', this.#runSeq);
    }

    const runs = changes.runs;
    if (runs !== undefined) {
      for (let i = 0; i < runs.length; i++) {
        const r = runs[i] as (typeof runs)[number];
        // The revision check is the write's own WHERE clause (or the primary key), so the hot
        // path costs two statements; the conflict path reads the row only to explain itself.
        const at = formatTime(timeOr(r.at, nowMs, `changes.runs[${i}].at`));
        const revision = r.expectedRevision + 1;
        const eventCount = serialized.runEventCounts[i] as number;
        const snapshot = serialized.runSnapshots[i] as string;
        let firstEventSeq = 1;
        if (r.expectedRevision === 0) {
          const inserted = s.runInsert.run(
            r.id,
            r.kind,
            nullable(r.workflowId),
            nullable(r.batchId),
            r.status,
            r.active ? 1 : 0,
            r.priority,
            snapshot,
            eventCount,
            at,
            at,
            this.#runSeq + 1,
          );
          if (inserted.changes === 0) throw this.#runConflict(r.id, r.expectedRevision);
          this.#runSeq++;
        } else {
          const workflowId = nullable(r.workflowId);
          const batchId = nullable(r.batchId);
          const active = r.active ? 1 : 0;
          const updated = s.runUpdate.get(
            r.priority,
            snapshot,
            eventCount,
            at,
            r.id,
            r.expectedRevision,
          );
          if (updated === undefined) throw this.#runConflict(r.id, r.expectedRevision);
          // Only the columns that changed: SQLite rewrites the index of every column it SETs.
          const now = [r.kind, workflowId, batchId, r.status, active];
          const was = [
            updated.kind,
            updated.workflow_id,
            updated.batch_id,
            updated.status,
            updated.active,
          ];
          const changed: unknown[] = [];
          let mask = 0;
          for (let c = 0; c < 5; c++) {
            if (now[c] === was[c]) continue;
            mask |= 1 << c;
            changed.push(now[c]);
          }
          if (mask !== 0) this.#runIndexedUpdate(mask).run(...changed, r.id);
          firstEventSeq = updated.event_seq - eventCount + 1;
        }
        const packed = serialized.runEvents[i];
        if (packed !== undefined) {
          s.eventInsert.run(
            r.id,
            firstEventSeq,
            firstEventSeq + eventCount - 1,
            packed,
            revision,
            at,
          );
        }
        runRevisions[r.id] = revision;
      }
    }

    for (const id of changes.dequeue ?? []) {
      if (s.workLeasedDelete.run(id).changes === 0) s.workDelete.run(id);
    }

    const enqueue = changes.enqueue;
    if (enqueue !== undefined) {
      for (let i = 0; i < enqueue.length; i++) {
        const w = enqueue[i] as (typeof enqueue)[number];
        const availableMs = timeOr(w.availableAt, nowMs, `changes.enqueue[${i}].availableAt`);
        const inserted =
          w.lease === undefined
            ? s.workInsert.run(
                w.id,
                w.runId,
                w.kind,
                w.priority,
                this.#workSeq + 1,
                availableMs,
                serialized.payloads[i] as string,
                w.id,
              )
            : s.workInsertLeased.run(
                w.id,
                w.runId,
                w.kind,
                w.priority,
                this.#workSeq + 1,
                availableMs,
                serialized.payloads[i] as string,
                w.lease.owner,
                nowMs + w.lease.leaseMs,
                w.id,
              );
        if (inserted.changes > 0) this.#workSeq++;
      }
    }

    const deliveries = changes.deliveries;
    if (deliveries !== undefined) {
      for (let i = 0; i < deliveries.length; i++) {
        const d = deliveries[i] as (typeof deliveries)[number];
        const at = formatTime(timeOr(d.at, nowMs, `changes.deliveries[${i}].at`));
        s.deliveryUpsert.run(
          d.id,
          d.endpointId,
          d.eventId,
          d.eventType,
          serialized.deliveryEvents[i] as string,
          d.status,
          serialized.deliveryAttempts[i] as string,
          parseTime(d.nextAttemptAt, `changes.deliveries[${i}].nextAttemptAt`),
          at,
          at,
          ++this.#deliverySeq,
        );
      }
    }

    return { runRevisions, documentRevisions };
  }

  /** The UPDATE of the indexed run columns in `mask` (kind, workflow, batch, status, active). */
  #runIndexedUpdate(mask: number): Statement {
    let statement = this.#indexedUpdates[mask];
    if (statement === undefined) {
      const columns = ['kind', 'workflow_id', 'batch_id', 'status', 'active'].filter(
        (_, i) => (mask & (1 << i)) !== 0,
      );
      statement = this.#get().db.prepare(
        `UPDATE runs SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`,
      );
      this.#indexedUpdates[mask] = statement;
    }
    return statement;
  }

  #runConflict(id: string, expected: number): StorageError {
    return revisionConflict(`runs/${id}`, expected, this.#get().s.runMeta.get(id)?.revision);
  }

  async commit(changes: Changes, options?: AbortableOptions): Promise<CommitResult> {
    const open = this.#get(options);
    validateChanges(changes);
    const nowMs = this.#clock.now().getTime();
    if (this.durability === 'batched') {
      return new Promise<CommitResult>((resolve, reject) => {
        // Applied at the end of the tick: copy now so that a caller mutating its objects after
        // the call cannot change what gets stored.
        this.#batch.push({ changes: serializeChanges(changes, true), nowMs, resolve, reject });
        this.#flushTimer ??= setImmediate(() => {
          this.#flushTimer = undefined;
          this.#flush();
        });
      });
    }
    try {
      return open.commitTx(serializeChanges(changes, false), nowMs);
    } catch (error) {
      throw toStorageError(error);
    }
  }

  /**
   * Group commit: every pending commit in one transaction, each in a savepoint so that one
   * commit's conflict rolls back only that commit. Promises settle after COMMIT returns.
   */
  #flush(): void {
    const batch = this.#batch;
    if (batch.length === 0) return;
    this.#batch = [];
    const open = this.#open;
    if (open === undefined) {
      for (const p of batch) p.reject(notOpen(this.name));
      return;
    }
    let outcomes: Outcome[] | undefined;
    try {
      // Optimistically without savepoints (each costs a sub-journal of every page it touches);
      // if one commit fails, the whole group is rolled back and replayed one savepoint each.
      outcomes = this.#applyGroup(open, batch, false) ?? this.#applyGroup(open, batch, true);
    } catch (error) {
      if (open.db.inTransaction) open.txControl.rollback.run();
      const failure = toStorageError(error);
      for (const p of batch) p.reject(failure);
      return;
    }
    batch.forEach((p, i) => {
      const outcome = outcomes?.[i];
      if (outcome?.ok === true) p.resolve(outcome.result);
      else p.reject(outcome?.error);
    });
  }

  /**
   * Applies a group in one transaction. `isolated`: each commit in a savepoint, a failing one
   * rolled back alone; otherwise the first failure rolls back everything and returns undefined.
   */
  #applyGroup(
    open: Open,
    batch: readonly PendingCommit[],
    isolated: boolean,
  ): Outcome[] | undefined {
    const t = open.txControl;
    const outcomes: Outcome[] = [];
    t.begin.run();
    for (const p of batch) {
      if (isolated) t.savepoint.run();
      try {
        const result = this.#apply(p.changes, p.nowMs);
        if (isolated) t.release.run();
        outcomes.push({ ok: true, result });
      } catch (error) {
        if (!isolated) {
          t.rollback.run();
          return undefined;
        }
        t.rollbackTo.run();
        t.release.run();
        outcomes.push({ ok: false, error: toStorageError(error) });
      }
    }
    t.commit.run();
    return outcomes;
  }

  #run<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      throw toStorageError(error);
    }
  }

  async getDocument(
    collection: CollectionName,
    id: string,
    options?: AbortableOptions,
  ): Promise<StoredDocument | undefined> {
    const { s } = this.#get(options);
    checkCollection(collection, 'collection');
    checkString(id, 'id');
    const row = this.#run(() => s.docGet.get(collection, id));
    return row === undefined ? undefined : documentFromRow(row);
  }

  async getDocumentByKey(
    collection: CollectionName,
    key: string,
    options?: AbortableOptions,
  ): Promise<StoredDocument | undefined> {
    const { s } = this.#get(options);
    checkCollection(collection, 'collection');
    checkString(key, 'key');
    const row = this.#run(() => s.docGetByKey.get(collection, key));
    return row === undefined ? undefined : documentFromRow(row);
  }

  async listDocuments(
    collection: CollectionName,
    query: DocumentQuery = {},
  ): Promise<Page<StoredDocument>> {
    this.#get(query);
    checkCollection(collection, 'collection');
    const { parentId, secondaryId, nameContains } = query;
    checkOptionalString(parentId, 'parentId');
    checkOptionalString(secondaryId, 'secondaryId');
    if (nameContains !== undefined && typeof nameContains !== 'string')
      checkString(nameContains, 'nameContains');
    const q = keysetQuery(
      `documents:${collection}`,
      { parentId, secondaryId, nameContains },
      query,
    );
    const where: [string, unknown][] = [['collection = ?', collection]];
    if (parentId !== undefined) where.push(['parent_id = ?', parentId]);
    if (secondaryId !== undefined) where.push(['secondary_id = ?', secondaryId]);
    if (nameContains !== undefined)
      where.push(['instr(name_folded, ?) > 0', nameContains.toLowerCase()]);
    const rows = this.#list<DocumentRow>('documents', where, q);
    return toPage(rows, q, (r) => r.seq, documentFromRow);
  }

  async getRun(id: string, options?: AbortableOptions): Promise<RunRecord | undefined> {
    const { s } = this.#get(options);
    checkString(id, 'id');
    const row = this.#run(() => s.runGet.get(id));
    return row === undefined ? undefined : runFromRow(row);
  }

  async listRuns(query: RunQuery = {}): Promise<Page<RunRecord>> {
    this.#get(query);
    const { kind, workflowId, batchId, status, active } = query;
    checkOptionalString(kind, 'kind');
    checkOptionalString(workflowId, 'workflowId');
    checkOptionalString(batchId, 'batchId');
    checkOptionalString(status, 'status');
    checkOptionalBoolean(active, 'active');
    const q = keysetQuery('runs', { kind, workflowId, batchId, status, active }, query);
    const where: [string, unknown][] = [];
    if (kind !== undefined) where.push(['kind = ?', kind]);
    if (workflowId !== undefined) where.push(['workflow_id = ?', workflowId]);
    if (batchId !== undefined) where.push(['batch_id = ?', batchId]);
    if (status !== undefined) where.push(['status = ?', status]);
    if (active !== undefined) where.push(['active = ?', active ? 1 : 0]);
    const rows = this.#list<RunRow>('runs', where, q);
    return toPage(rows, q, (r) => r.seq, runFromRow);
  }

  async listRunEvents(
    runId: string,
    options: AbortableOptions & { afterSeq?: number; limit?: number } = {},
  ): Promise<readonly RunEventRecord[]> {
    const { s } = this.#get(options);
    checkString(runId, 'runId');
    checkOptionalCount(options.afterSeq, 'afterSeq', 0);
    checkOptionalCount(options.limit, 'limit', 1);
    const after = options.afterSeq ?? 0;
    const rows = this.#run(() =>
      options.limit === undefined
        ? s.eventsAfter.all(runId, after)
        : s.eventsAfterLimit.all(runId, after, options.limit),
    );
    const events: RunEventRecord[] = [];
    for (const row of rows) eventsFromRow(row, after, events);
    return options.limit === undefined ? events : events.slice(0, options.limit);
  }

  async claimWork(options: ClaimWorkOptions): Promise<readonly WorkItem[]> {
    const { s } = this.#get(options);
    checkClaim(options);
    if (options.kinds !== undefined) checkIds(options.kinds, 'kinds');
    const nowMs =
      options.now === undefined ? this.#clock.now().getTime() : parseTime(options.now, 'now');
    const expires = nowMs + options.leaseMs;
    const rows = this.#run(() => {
      this.#requeueExpiredLeases(nowMs);
      return options.kinds === undefined
        ? s.workClaim.all({ now: nowMs, owner: options.owner, expires, limit: options.limit })
        : s.workClaimKinds.all({
            now: nowMs,
            owner: options.owner,
            expires,
            limit: options.limit,
            kinds: JSON.stringify(options.kinds),
          });
    });
    // RETURNING gives rows in no promised order.
    return rows.sort((a, b) => a.priority - b.priority || a.seq - b.seq).map(workFromRow);
  }

  async renewWork(
    ids: readonly string[],
    options: { owner: string; leaseMs: number; now?: string } & AbortableOptions,
  ): Promise<readonly string[]> {
    const { s, db } = this.#get(options);
    checkIds(ids, 'ids');
    checkClaim({ owner: options.owner, limit: 1, leaseMs: options.leaseMs, now: options.now });
    const nowMs =
      options.now === undefined ? this.#clock.now().getTime() : parseTime(options.now, 'now');
    const expires = nowMs + options.leaseMs;
    return this.#run(() =>
      db.transaction(() =>
        ids.filter(
          (id) =>
            s.workLeasedRenew.run(expires, id, options.owner).changes > 0 ||
            s.workRenew.run(expires, id, options.owner).changes > 0,
        ),
      )(),
    );
  }

  async releaseWork(
    ids: readonly string[],
    options: { owner: string; availableAt?: string } & AbortableOptions,
  ): Promise<void> {
    const { s, db } = this.#get(options);
    checkIds(ids, 'ids');
    checkString(options.owner, 'owner');
    checkOptionalTime(options.availableAt, 'availableAt');
    const availableMs =
      options.availableAt === undefined ? null : parseTime(options.availableAt, 'availableAt');
    this.#run(() =>
      db.transaction(() => {
        for (const id of ids) {
          if (s.workLeasedRelease.run(availableMs, id, options.owner).changes > 0) {
            s.workLeasedReleaseDelete.run(id, options.owner);
          } else s.workRelease.run(availableMs, id, options.owner);
        }
      })(),
    );
  }

  async listWork(
    options: AbortableOptions & { runId?: string } = {},
  ): Promise<readonly WorkItem[]> {
    const { s } = this.#get(options);
    checkOptionalString(options.runId, 'runId');
    const rows = this.#run(() =>
      options.runId === undefined
        ? s.workList.all()
        : s.workListByRun.all(options.runId, options.runId),
    );
    return rows.map(workFromRow);
  }

  /** Moves items whose enqueue-time lease expired (their engine died) back to the queue. */
  #requeueExpiredLeases(nowMs: number): void {
    const { s, db } = this.#get();
    if (s.workLeasedExpired.get(nowMs) !== undefined) {
      db.transaction(() => {
        s.workLeasedRequeue.run(nowMs);
        s.workLeasedRequeueDelete.run(nowMs);
      }).immediate();
    }
  }

  async claimDeliveries(options: ClaimOptions): Promise<readonly DeliveryRecord[]> {
    const { s } = this.#get(options);
    checkClaim(options);
    const nowMs =
      options.now === undefined ? this.#clock.now().getTime() : parseTime(options.now, 'now');
    const rows = this.#run(() =>
      s.deliveryClaim.all({
        now: nowMs,
        owner: options.owner,
        expires: nowMs + options.leaseMs,
        limit: options.limit,
      }),
    );
    return rows
      .sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.seq - b.seq)
      .map(deliveryFromRow);
  }

  async getDelivery(id: string, options?: AbortableOptions): Promise<DeliveryRecord | undefined> {
    const { s } = this.#get(options);
    checkString(id, 'id');
    const row = this.#run(() => s.deliveryGet.get(id));
    return row === undefined ? undefined : deliveryFromRow(row);
  }

  async listDeliveries(query: DeliveryQuery = {}): Promise<Page<DeliveryRecord>> {
    this.#get(query);
    const { endpointId, eventId, status } = query;
    checkOptionalString(endpointId, 'endpointId');
    checkOptionalString(eventId, 'eventId');
    checkOptionalString(status, 'status');
    const q = keysetQuery('deliveries', { endpointId, eventId, status }, query);
    const where: [string, unknown][] = [];
    if (endpointId !== undefined) where.push(['endpoint_id = ?', endpointId]);
    if (eventId !== undefined) where.push(['event_id = ?', eventId]);
    if (status !== undefined) where.push(['status = ?', status]);
    const rows = this.#list<DeliveryRow>('deliveries', where, q);
    return toPage(rows, q, (r) => r.seq, deliveryFromRow);
  }

  /** Runs a keyset list query; statements are cached per filter combination. */
  #list<R>(
    table: 'documents' | 'runs' | 'deliveries',
    where: readonly [string, unknown][],
    q: KeysetQuery,
  ): R[] {
    const { db } = this.#get();
    const sql = keysetSelect(
      table,
      where.map(([condition]) => condition),
      q.order,
      q.afterSeq !== undefined,
    );
    const params = where.map(([, value]) => value);
    if (q.afterSeq !== undefined) params.push(q.afterSeq);
    params.push(q.pageSize + 1);
    return this.#run(() => {
      let statement = this.#listStatements.get(sql);
      if (statement === undefined) {
        statement = db.prepare(sql);
        this.#listStatements.set(sql, statement);
      }
      return statement.all(...params) as R[];
    });
  }

  #blobStore(): BlobStore {
    return {
      put: async (key, bytes, options) => {
        const { s } = this.#get(options);
        checkBlobPut(key, bytes);
        this.#run(() =>
          s.blobPut.run(key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
        );
      },
      get: async (key, options) => {
        const { s } = this.#get(options);
        checkString(key, 'key');
        const row = this.#run(() => s.blobGet.get(key));
        return row === undefined ? undefined : Uint8Array.from(row.bytes);
      },
      delete: async (key, options) => {
        const { s } = this.#get(options);
        checkString(key, 'key');
        this.#run(() => s.blobDelete.run(key));
      },
    };
  }
}

/**
 * Creates a {@link StorageAdapter} over a SQLite file (better-sqlite3, WAL). `open()` creates the
 * file, applies pending migrations and refuses a database written by a newer schema.
 *
 * @example
 * const storage = sqliteStorage({ path: 'docflow.db', durability: 'normal' });
 * await storage.open();
 */
export function sqliteStorage(options: SqliteStorageOptions): SqliteStorageAdapter {
  return new SqliteStorage(options);
}
