import type BetterSqlite3 from 'better-sqlite3';
import { StorageError } from '../errors.ts';
import type { KeysetQuery } from '../internal/keyset-page.ts';
import { toPage } from '../internal/keyset-page.ts';
import {
  deliveryListQuery,
  documentListQuery,
  runListQuery,
  type SqlListFilter,
} from '../internal/sql-list-queries.ts';
import { notOpen, throwIfAborted } from '../internal/storage-errors.ts';
import { claimableTimes, parseTime } from '../internal/time.ts';
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
  ClaimableTimes,
  ClaimOptions,
  ClaimWorkOptions,
  CollectionName,
  CommitResult,
  DeliveryQuery,
  DeliveryRecord,
  DocumentQuery,
  Durability,
  NextClaimableOptions,
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
import {
  type BackgroundCheckpoints,
  startBackgroundCheckpoints,
} from './background-checkpoints.ts';
import {
  acquireDocumentCache,
  type DocumentCache,
  releaseDocumentCache,
} from './document-cache.ts';
import { acquireFileLock, type FileLock } from './file-lock.ts';
import { groupAction, maxGroupsInFlight } from './group-policy.ts';
import { keysetSelect } from './keyset-select.ts';
import { recordedSchemaVersion } from './migrations.ts';
import { type SerializedChanges, serializeChanges } from './serialized-changes.ts';
import {
  type ConnectionSettings,
  openConnection,
  runSql,
  toStorageError,
} from './sqlite-connection.ts';
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
import { SqliteWriter } from './sqlite-writer.ts';
import { inlineWriter, startWriterThread, type WriterPort } from './writer-port.ts';

/** Options of {@link sqliteStorage}. */
export interface SqliteStorageOptions {
  /** Database file; `':memory:'` for a private in-memory database. */
  readonly path: string;
  /**
   * `normal` (default): WAL with synchronous=NORMAL, survives a crash of the process.
   * `full`: synchronous=FULL, every commit is fsynced and survives power loss.
   *   With both, commits made in one turn share a transaction, written without a timer.
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
   * WAL pages after which a commit copies the WAL back into the database itself and the WAL
   * starts over (default 10,000, about 40 MB; 0 never). With `backgroundCheckpoints` (the
   * default) a thread has copied most of it already. SQLite's default of 1,000 makes every 100th
   * step commit pay a checkpoint of pages that are rewritten again moments later.
   */
  readonly walCheckpointPages?: number | undefined;
  /**
   * Perform every write on a worker thread of its own (default false): serialising and
   * committing then cost the calling thread only a message, so the engine and SQLite use two
   * cores. Reads stay on a connection of the calling thread. Ignored for `':memory:'`.
   */
  readonly writerThread?: boolean | undefined;
  /**
   * Copy the WAL back into the database file on a thread of its own, shared by the process's
   * adapters (default true): writes go on meanwhile, and the commit that crosses
   * `walCheckpointPages` finds little left to copy. Ignored for `':memory:'`.
   */
  readonly backgroundCheckpoints?: boolean | undefined;
  /**
   * Open the file to read only (default false): no lock is taken, so this works beside the
   * engine that writes the file (a CLI listing runs, a report, a test reading what a run
   * stored); every write is refused with `READ_ONLY`. The file must exist. Without it, `open()`
   * takes the file's exclusive lock: a second writer, in this process or another, is refused
   * with `DATABASE_IN_USE` naming the process that holds it.
   */
  readonly readOnly?: boolean | undefined;
  /**
   * Take the file's exclusive lock on `open()` (default true). `false` is for tools and tests
   * that write beside an engine on purpose and coordinate with it themselves: the engine's
   * recovery assumes it is the only writer.
   */
  readonly exclusive?: boolean | undefined;
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
  /** Whether writes run on a worker thread. */
  readonly writerThread: boolean;
  /**
   * Whether a background thread checkpoints the WAL (it starts once the adapter has made
   * {@link BACKGROUND_CHECKPOINTS_AFTER} writes; false also where it could not start).
   */
  readonly backgroundCheckpoints: boolean;
}

/** The SQLite adapter: the contract plus an inspection method. */
export interface SqliteStorageAdapter extends StorageAdapter {
  readonly durability: Durability;
  /** Reports the database's settings; throws `NOT_OPEN` when closed. */
  info(): SqliteStorageInfo;
}

type Statement<R = unknown> = BetterSqlite3.Statement<unknown[], R>;

interface PendingCommit {
  readonly changes: SerializedChanges;
  readonly nowMs: number;
  readonly resolve: (result: CommitResult) => void;
  readonly reject: (error: unknown) => void;
}

interface Open {
  /** Reads go through this connection (and, without a writer thread, writes too). */
  readonly db: BetterSqlite3.Database;
  /** Small documents read by id, shared by the adapters of this file in this process. */
  readonly documents: DocumentCache;
  readonly s: SqliteStatements;
  readonly writer: WriterPort;
  /** Writes so far, until the checkpoint thread is asked for. */
  writes: number;
  /** The registration with the checkpoint thread, once asked for (undefined where it failed). */
  checkpoints: Promise<BackgroundCheckpoints | undefined> | undefined;
  /** Set once registered: what every write tells. */
  registered: BackgroundCheckpoints | undefined;
  checkpointsFailed: boolean;
}

/**
 * Writes after which an adapter registers with the checkpoint thread: a short-lived one (a CLI
 * command, a small test) never starts the thread, whose start-up costs about 70 ms.
 */
export const BACKGROUND_CHECKPOINTS_AFTER = 100;

const DURABILITIES: readonly Durability[] = ['full', 'normal', 'batched'];
/** `#peak` loses half of itself in about 140 commits unless commits under way renew it. */
const PEAK_DECAY = 0.995;
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
  readonly #writerThread: boolean;
  readonly #backgroundCheckpoints: boolean;
  readonly #readOnly: boolean;
  readonly #exclusive: boolean;
  #lock: FileLock | undefined;
  #open: Open | undefined;
  readonly #listStatements = new Map<string, Statement>();
  #batch: PendingCommit[] = [];
  #flushTimer: NodeJS.Immediate | undefined;
  /** A microtask that writes the pending group is queued. */
  #microtaskFlush = false;
  /** The last group sent to the writer (they are written in order). */
  #writing: Promise<void> | undefined;
  /** Groups sent and not yet back, and the commits they hold. */
  #inFlight = 0;
  #inFlightCommits = 0;
  /** The most commits under way at once lately, decaying (see {@link groupAction}). */
  #peak = 0;

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
    checkOptionalBoolean(options.writerThread, 'writerThread');
    // A private in-memory database cannot be shared with another thread.
    this.#writerThread = options.writerThread === true && options.path !== ':memory:';
    checkOptionalBoolean(options.backgroundCheckpoints, 'backgroundCheckpoints');
    checkOptionalBoolean(options.readOnly, 'readOnly');
    this.#readOnly = options.readOnly === true;
    checkOptionalBoolean(options.exclusive, 'exclusive');
    this.#exclusive = options.exclusive !== false && !this.#readOnly;
    this.#backgroundCheckpoints =
      options.backgroundCheckpoints !== false && options.path !== ':memory:' && !this.#readOnly;
    this.blobs = this.#blobStore();
  }

  #get(options?: AbortableOptions): Open {
    if (this.#open === undefined) throw notOpen(this.name);
    throwIfAborted(options);
    return this.#open;
  }

  /** The writer, for a call that writes: the checkpoint thread hears of it. */
  #writer(options?: AbortableOptions): WriterPort {
    const open = this.#get(options);
    if (this.#readOnly) {
      throw new StorageError(
        'READ_ONLY',
        `${this.#path} was opened read-only (sqliteStorage({ readOnly: true })): writes are refused`,
        { details: { path: this.#path } },
      );
    }
    if (open.registered !== undefined) open.registered.touch();
    else if (this.#backgroundCheckpoints && ++open.writes === BACKGROUND_CHECKPOINTS_AFTER) {
      open.checkpoints = startBackgroundCheckpoints(
        this.#path,
        this.durability === 'full' ? 'FULL' : 'NORMAL',
      ).then(
        (registered) => {
          registered.touch();
          open.registered = registered;
          return registered;
        },
        // An optimisation: where the thread cannot start, the writer checkpoints as before.
        () => {
          open.checkpointsFailed = true;
          return undefined;
        },
      );
    }
    return open.writer;
  }

  async open(options?: AbortableOptions): Promise<void> {
    throwIfAborted(options);
    if (this.#open !== undefined) return;
    const settings: ConnectionSettings = {
      path: this.#path,
      durability: this.durability,
      busyTimeoutMs: this.#busyTimeoutMs,
      mmapSizeBytes: this.#mmapSizeBytes,
      walCheckpointPages: this.#walCheckpointPages,
    };
    // One writer per file: the lock comes first, so a refused open changes nothing.
    const lock =
      this.#exclusive && this.#path !== ':memory:' ? acquireFileLock(this.#path) : undefined;
    let connected: { db: BetterSqlite3.Database; writer: WriterPort };
    try {
      connected = await this.#connect(settings);
    } catch (error) {
      lock?.release();
      throw error;
    }
    const { db, writer } = connected;
    this.#lock = lock;
    try {
      this.#listStatements.clear();
      this.#open = {
        db,
        documents: acquireDocumentCache(this.#path),
        s: prepareStatements(db),
        writer,
        writes: 0,
        checkpoints: undefined,
        registered: undefined,
        checkpointsFailed: false,
      };
    } catch (error) {
      await writer.close();
      db.close();
      this.#releaseLock();
      throw toStorageError(error, true);
    }
  }

  #releaseLock(): void {
    const lock = this.#lock;
    this.#lock = undefined;
    lock?.release();
  }

  /** The reading connection and the writer (migrated), in this thread or a worker thread. */
  async #connect(
    settings: ConnectionSettings,
  ): Promise<{ db: BetterSqlite3.Database; writer: WriterPort }> {
    if (this.#readOnly) {
      const db = openConnection(settings, false, true);
      return {
        db,
        writer: { threaded: false, call: () => Promise.reject(), close: async () => {} },
      };
    }
    if (this.#writerThread) {
      // The thread migrates the schema before this connection, which only reads, is opened.
      const writer = await startWriterThread(settings);
      try {
        return { db: openConnection(settings, false), writer };
      } catch (error) {
        await writer.close();
        throw error;
      }
    }
    const db = openConnection(settings, true);
    try {
      return { db, writer: inlineWriter(new SqliteWriter(db)) };
    } catch (error) {
      db.close();
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
      writerThread: this.#get().writer.threaded,
      backgroundCheckpoints: this.#backgroundCheckpoints && !this.#get().checkpointsFailed,
    };
  }

  async close(): Promise<void> {
    const open = this.#open;
    if (open === undefined) return;
    if (this.#flushTimer !== undefined) {
      clearImmediate(this.#flushTimer);
      this.#flushTimer = undefined;
    }
    await this.#flush();
    this.#open = undefined;
    releaseDocumentCache(this.#path, open.documents);
    await (await open.checkpoints)?.stop();
    await open.writer.close();
    open.db.close();
    this.#releaseLock();
  }

  async commit(changes: Changes, options?: AbortableOptions): Promise<CommitResult> {
    const writer = this.#writer(options);
    validateChanges(changes);
    const nowMs = this.#clock.now().getTime();
    // Serialised now: what gets stored is what was passed, whenever the writer applies it.
    const serialized = serializeChanges(changes);
    this.#get().documents.forget(serialized.changes);
    return new Promise<CommitResult>((resolve, reject) => {
      this.#batch.push({ changes: serialized, nowMs, resolve, reject });
      this.#peak = Math.max(this.#inFlightCommits + this.#batch.length, this.#peak * PEAK_DECAY);
      const action = groupAction({
        threaded: writer.threaded,
        durability: this.durability,
        inFlight: this.#inFlight,
        pending: this.#batch.length,
        peak: this.#peak,
      });
      if (action === 'write-now') void this.#writeGroup();
      else if (action === 'write-at-end-of-tick') this.#scheduleFlush();
      else if (action === 'write-after-microtasks') this.#scheduleMicrotaskFlush();
    });
  }

  /**
   * Group commit: the pending commits in one transaction; each settles with its outcome. When a
   * group goes is {@link groupAction}'s decision. Resolves when nothing is pending or in flight.
   */
  async #flush(): Promise<void> {
    while (this.#writing !== undefined || this.#batch.length > 0) {
      if (this.#writing !== undefined) {
        await this.#writing;
        continue;
      }
      await this.#writeGroup();
    }
  }

  #scheduleFlush(): void {
    this.#flushTimer ??= setImmediate(() => {
      this.#flushTimer = undefined;
      const threaded = this.#open?.writer.threaded ?? false;
      if (this.#inFlight < maxGroupsInFlight(threaded) && this.#batch.length > 0) {
        void this.#writeGroup();
      }
    });
  }

  /** Writes the pending group once the microtasks queued so far have run (see `groupAction`). */
  #scheduleMicrotaskFlush(): void {
    if (this.#microtaskFlush) return;
    this.#microtaskFlush = true;
    queueMicrotask(() => {
      this.#microtaskFlush = false;
      if (this.#inFlight === 0 && this.#batch.length > 0) void this.#writeGroup();
    });
  }

  #writeGroup(): Promise<void> {
    const batch = this.#batch;
    this.#batch = [];
    const open = this.#open;
    if (open === undefined || batch.length === 0) {
      for (const p of batch) p.reject(notOpen(this.name));
      return Promise.resolve();
    }
    const writing = open.writer
      .call(
        'commitGroup',
        batch.map((p) => ({ changes: p.changes, nowMs: p.nowMs })),
      )
      .then(
        (outcomes) =>
          batch.forEach((p, i) => {
            // A read since the commit was called may have cached what it replaced.
            open.documents.forget(p.changes.changes);
            const outcome = outcomes[i];
            if (outcome?.ok === true) p.resolve(outcome.result);
            else p.reject(outcome?.error);
          }),
        (error) => {
          for (const p of batch) {
            open.documents.forget(p.changes.changes);
            p.reject(error);
          }
        },
      )
      .finally(() => {
        this.#inFlight--;
        this.#inFlightCommits -= batch.length;
        if (this.#writing === writing) this.#writing = undefined;
        if (this.#batch.length === 0) return;
        if (this.durability === 'batched') this.#scheduleFlush();
        else if (this.#open?.writer.threaded === true) void this.#writeGroup();
        else this.#scheduleMicrotaskFlush();
      });
    this.#writing = writing;
    this.#inFlight++;
    this.#inFlightCommits += batch.length;
    return writing;
  }

  async getDocument(
    collection: CollectionName,
    id: string,
    options?: AbortableOptions,
  ): Promise<StoredDocument | undefined> {
    const { s, documents } = this.#get(options);
    checkCollection(collection, 'collection');
    checkString(id, 'id');
    let row = documents.get(collection, id);
    if (row === undefined) {
      row = runSql(() => s.docGet.get(collection, id));
      if (row === undefined) return undefined;
      documents.set(row);
    }
    return documentFromRow(row);
  }

  async getDocumentByKey(
    collection: CollectionName,
    key: string,
    options?: AbortableOptions,
  ): Promise<StoredDocument | undefined> {
    const { s } = this.#get(options);
    checkCollection(collection, 'collection');
    checkString(key, 'key');
    const row = runSql(() => s.docGetByKey.get(collection, key));
    return row === undefined ? undefined : documentFromRow(row);
  }

  async listDocuments(
    collection: CollectionName,
    query: DocumentQuery = {},
  ): Promise<Page<StoredDocument>> {
    this.#get(query);
    const { q, filters } = documentListQuery(collection, query);
    const rows = this.#list<DocumentRow>('documents', sqliteConditions(filters), q);
    return toPage(rows, q, (r) => r.seq, documentFromRow);
  }

  async getRun(id: string, options?: AbortableOptions): Promise<RunRecord | undefined> {
    const { s } = this.#get(options);
    checkString(id, 'id');
    return this.#readRuns(
      () => {
        const row = runSql(() => s.runGet.get(id));
        return row === undefined ? [] : [row];
      },
      (rows, record) => (rows[0] === undefined ? undefined : record(rows[0])),
    );
  }

  async listRuns(query: RunQuery = {}): Promise<Page<RunRecord>> {
    this.#get(query);
    const { q, filters } = runListQuery(query);
    return this.#readRuns(
      () => this.#list<RunRow>('runs', sqliteConditions(filters), q),
      (rows, record) => toPage(rows, q, (r) => r.seq, record),
    );
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
    const rows = runSql(() =>
      options.limit === undefined
        ? s.eventsAfter.all(runId, after)
        : s.eventsAfterLimit.all(runId, after, options.limit),
    );
    const events: RunEventRecord[] = [];
    for (const row of rows) eventsFromRow(row, after, events);
    return options.limit === undefined ? events : events.slice(0, options.limit);
  }

  async claimWork(options: ClaimWorkOptions): Promise<readonly WorkItem[]> {
    const writer = this.#writer(options);
    checkClaim(options);
    if (options.kinds !== undefined) checkIds(options.kinds, 'kinds');
    const nowMs =
      options.now === undefined ? this.#clock.now().getTime() : parseTime(options.now, 'now');
    const rows = await writer.call('claimWork', {
      nowMs,
      owner: options.owner,
      leaseMs: options.leaseMs,
      limit: options.limit,
      kinds: options.kinds,
    });
    return rows.map(workFromRow);
  }

  async renewWork(
    ids: readonly string[],
    options: { owner: string; leaseMs: number; now?: string } & AbortableOptions,
  ): Promise<readonly string[]> {
    const writer = this.#writer(options);
    checkIds(ids, 'ids');
    checkClaim({ owner: options.owner, limit: 1, leaseMs: options.leaseMs, now: options.now });
    const nowMs =
      options.now === undefined ? this.#clock.now().getTime() : parseTime(options.now, 'now');
    return writer.call('renewWork', [...ids], options.owner, nowMs + options.leaseMs);
  }

  async releaseWork(
    ids: readonly string[],
    options: { owner: string; availableAt?: string } & AbortableOptions,
  ): Promise<void> {
    const writer = this.#writer(options);
    checkIds(ids, 'ids');
    checkString(options.owner, 'owner');
    checkOptionalTime(options.availableAt, 'availableAt');
    const availableMs =
      options.availableAt === undefined ? null : parseTime(options.availableAt, 'availableAt');
    await writer.call('releaseWork', [...ids], options.owner, availableMs);
  }

  async listWork(
    options: AbortableOptions & { runId?: string } = {},
  ): Promise<readonly WorkItem[]> {
    const { s } = this.#get(options);
    checkOptionalString(options.runId, 'runId');
    const rows = runSql(() =>
      options.runId === undefined
        ? s.workList.all()
        : s.workListByRun.all(options.runId, options.runId),
    );
    return rows.map(workFromRow);
  }

  async claimDeliveries(options: ClaimOptions): Promise<readonly DeliveryRecord[]> {
    const writer = this.#writer(options);
    checkClaim(options);
    const nowMs =
      options.now === undefined ? this.#clock.now().getTime() : parseTime(options.now, 'now');
    const rows = await writer.call('claimDeliveries', {
      nowMs,
      owner: options.owner,
      leaseMs: options.leaseMs,
      limit: options.limit,
    });
    return rows.map(deliveryFromRow);
  }

  async getDelivery(id: string, options?: AbortableOptions): Promise<DeliveryRecord | undefined> {
    const { s } = this.#get(options);
    checkString(id, 'id');
    const row = runSql(() => s.deliveryGet.get(id));
    return row === undefined ? undefined : deliveryFromRow(row);
  }

  async listDeliveries(query: DeliveryQuery = {}): Promise<Page<DeliveryRecord>> {
    this.#get(query);
    const { q, filters } = deliveryListQuery(query);
    const rows = this.#list<DeliveryRow>('deliveries', sqliteConditions(filters), q);
    return toPage(rows, q, (r) => r.seq, deliveryFromRow);
  }

  async nextClaimableAt(options: NextClaimableOptions = {}): Promise<ClaimableTimes> {
    const { s } = this.#get(options);
    if (options.kinds !== undefined) checkIds(options.kinds, 'kinds');
    const kinds = options.kinds === undefined ? null : JSON.stringify(options.kinds);
    const row = runSql(() => s.nextClaimable.get({ kinds }));
    return claimableTimes(
      row?.work ?? Number.POSITIVE_INFINITY,
      row?.deliveries ?? Number.POSITIVE_INFINITY,
    );
  }

  /**
   * Run rows as records: `read` gives the rows, `finish` maps them with `record`. Rows patched
   * since their stored snapshot are read again, with their patches, in one read transaction, so
   * that a commit in between (another thread's) cannot pair a row with the wrong patches.
   */
  #readRuns<T>(
    read: () => RunRow[],
    finish: (rows: RunRow[], record: (row: RunRow) => RunRecord) => T,
  ): T {
    const rows = read();
    if (rows.every((r) => r.revision === r.base_revision)) {
      return finish(rows, (r) => runFromRow(r));
    }
    const { db, s } = this.#get();
    return runSql(() =>
      db.transaction(() =>
        finish(read(), (r) =>
          runFromRow(
            r,
            r.revision === r.base_revision ? undefined : s.patchesAfter.all(r.id, r.base_event_seq),
          ),
        ),
      )(),
    );
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
      q.sortBy,
    );
    const params = where.map(([, value]) => value);
    if (q.afterSeq !== undefined) {
      if (q.sortBy === 'updatedAt') params.push(q.afterUpdatedAt);
      params.push(q.afterSeq);
    }
    params.push(q.pageSize + 1);
    return runSql(() => {
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
        const writer = this.#writer(options);
        checkBlobPut(key, bytes);
        await writer.call('putBlob', key, bytes);
      },
      get: async (key, options) => {
        const { s } = this.#get(options);
        checkString(key, 'key');
        const row = runSql(() => s.blobGet.get(key));
        return row === undefined ? undefined : Uint8Array.from(row.bytes);
      },
      delete: async (key, options) => {
        const writer = this.#writer(options);
        checkString(key, 'key');
        await writer.call('deleteBlob', key);
      },
      keys: async (prefix, options) => {
        const { s } = this.#get(options);
        checkString(prefix, 'prefix');
        return runSql(() => s.blobKeys.all({ prefix })).map((row) => row.key);
      },
    };
  }
}

/** SQLite conditions of list filters (booleans are stored as 0 and 1). */
function sqliteConditions(filters: readonly SqlListFilter[]): [string, unknown][] {
  return filters.map((f) =>
    f.op === 'contains'
      ? ['instr(name_folded, ?) > 0', f.value]
      : [`${f.column} = ?`, typeof f.value === 'boolean' ? (f.value ? 1 : 0) : f.value],
  );
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
