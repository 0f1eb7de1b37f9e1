import { randomUUID } from 'node:crypto';
import { type KeysetQuery, toPage } from '../internal/keyset-page.ts';
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
  NextClaimableOptions,
  Page,
  RunEventRecord,
  RunQuery,
  RunRecord,
  StorageAdapter,
  StorageWakeUp,
  StoredDocument,
  Unsubscribe,
  WorkItem,
} from '../storage-adapter.ts';
import type { StorageClock } from '../storage-clock.ts';
import { systemStorageClock } from '../storage-clock.ts';
import type { CommitWakeUps } from './postgres-commit.ts';
import { planCommit } from './postgres-commit.ts';
import {
  BEGIN_COMMIT,
  type CommitQueueStats,
  GENERIC_PLANS,
  PLANS_ON_KEYS,
  PostgresCommitQueue,
  SESSION_PLANNER_SETTINGS,
} from './postgres-commit-queue.ts';
import { DocumentReads } from './postgres-document-reads.ts';
import { toStorageError } from './postgres-errors.ts';
import {
  migratePostgres,
  quoteIdentifier,
  recordedPostgresSchemaVersion,
} from './postgres-migrations.ts';
import type {
  PostgresClient,
  PostgresPool,
  PostgresQuery,
  PostgresResult,
} from './postgres-pool.ts';
import { createOwnPool, oneQueryAtATime, queryConfig, sendCorked } from './postgres-pool.ts';
import type {
  PgDeliveryRow,
  PgDocumentRow,
  PgEventsRow,
  PgRunRow,
  PgWorkRow,
} from './postgres-rows.ts';
import {
  deliveryFromPg,
  documentFromPg,
  eventsFromPg,
  runFromPg,
  workFromPg,
} from './postgres-rows.ts';
import type { PostgresStatements } from './postgres-statements.ts';
import { postgresStatements } from './postgres-statements.ts';
import { PostgresWakeUps, wakeUpPayload } from './postgres-wake-ups.ts';

/**
 * How a list's page in creation order is read: in a read-only transaction whose prepared
 * statement keeps one generic plan, on keys. Planned anew for each call (a custom plan), the page
 * query cost more to plan than to run, and more the larger the table: with 100,000 runs the first
 * page took 0.51-0.59 ms against 0.35-0.40 with 100, with a generic plan 0.29-0.37 against
 * 0.34-0.43. A generic plan is kept from the first call, perhaps on an empty table, so it is made
 * with the settings step commits use (decision 0039): rows found by their indexes, however small
 * the table was then.
 */
const BEGIN_LIST = `BEGIN READ ONLY; ${GENERIC_PLANS}; ${PLANS_ON_KEYS}`;

/** Where the adapter connects: a connection string (it makes its own pool) or your pool. */
export type PostgresConnection =
  | {
      /** `postgres://user:password@host:port/database` (libpq's URL form). */
      readonly connectionString: string;
    }
  | {
      /**
       * A node-postgres `Pool` (or anything shaped like it, see {@link PostgresPool}). The adapter
       * borrows clients and gives them back; `close()` leaves the pool open. Turn on pg's
       * `pipeline: true` for one round trip per commit.
       */
      readonly pool: PostgresPool;
    };

/** Options of {@link postgresStorage}. */
export interface PostgresStorageOptions {
  /** The schema holding docflow's tables (default `docflow`), created by `open()`. */
  readonly schema?: string | undefined;
  /** Time source for timestamps, leases and availability; defaults to the wall clock. */
  readonly clock?: StorageClock | undefined;
  /** Connections of the pool made from a connection string (default 10). */
  readonly maxConnections?: number | undefined;
  /**
   * Commit transactions under way at once, at most (default 4). A second starts only while at
   * least `maxCommitsPerTransaction` commits wait (a backlog one transaction cannot carry, or
   * one held up by a lock): until then the waiting commits go together in the next, which costs
   * the server much less than several small transactions. A commit that touches a row (a run,
   * a document, a queue item, a delivery) of a transaction under way waits for it, so commits
   * on the same rows apply in the order they were called; others may commit in any order.
   */
  readonly maxCommitTransactions?: number | undefined;
  /**
   * The most commits one transaction carries (default 64; 1: every commit is a transaction of
   * its own). Commits called in one turn of your code, or while a transaction is under way,
   * share the next one.
   */
  readonly maxCommitsPerTransaction?: number | undefined;
  /** `application_name` of the adapter's connections (default `docflow`). */
  readonly applicationName?: string | undefined;
}

/** What an open PostgreSQL adapter reports (for operations and tests). */
export interface PostgresStorageInfo {
  readonly schema: string;
  /** The schema version recorded in its `schema_migrations`. */
  readonly schemaVersion: number;
  /** The LISTEN/NOTIFY channel of wake-ups. */
  readonly channel: string;
  /** This adapter instance's id, in the wake-ups it sends. */
  readonly instance: string;
  readonly serverVersion: string;
  /** The server's `synchronous_commit` (`on` unless someone traded durability away). */
  readonly synchronousCommit: string;
  /** What this adapter's commits cost since it opened (see `CommitQueueStats`). */
  readonly commits: CommitQueueStats;
}

/** The PostgreSQL adapter: the contract, its optional capabilities, and an inspection method. */
export interface PostgresStorageAdapter extends StorageAdapter {
  readonly sharedByProcesses: true;
  readonly schema: string;
  nextClaimableAt(options?: NextClaimableOptions): Promise<ClaimableTimes>;
  subscribe(
    listener: (wakeUp: StorageWakeUp) => void,
    options?: AbortableOptions,
  ): Promise<Unsubscribe>;
  /** Reports the schema and server settings; throws `NOT_OPEN` when closed. */
  info(options?: AbortableOptions): Promise<PostgresStorageInfo>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

interface Open {
  readonly pool: PostgresPool;
  readonly own: boolean;
  readonly commits: PostgresCommitQueue;
  readonly wakeUps: PostgresWakeUps;
  readonly documentReads: DocumentReads;
}

/** A {@link StorageAdapter} over PostgreSQL, shared by every process that opens the schema. */
class PostgresStorage implements PostgresStorageAdapter {
  readonly name = 'postgres';
  readonly sharedByProcesses = true;
  readonly schema: string;
  readonly blobs: BlobStore;
  readonly #connection: PostgresConnection;
  readonly #clock: StorageClock;
  readonly #maxConnections: number;
  readonly #maxTransactions: number;
  readonly #maxCommits: number;
  readonly #applicationName: string;
  readonly #s: PostgresStatements;
  readonly #channel: string;
  readonly #instance = randomUUID();
  #open: Open | undefined;
  #opening: Promise<void> | undefined;

  constructor(connection: PostgresConnection, options: PostgresStorageOptions) {
    if (typeof connection !== 'object' || connection === null) {
      invalid('connection', 'must be { connectionString } or { pool }');
    }
    if ('connectionString' in connection)
      checkString(connection.connectionString, 'connectionString');
    else if (
      !('pool' in connection) ||
      typeof (connection.pool as { connect?: unknown } | undefined)?.connect !== 'function'
    ) {
      invalid('connection', 'must be { connectionString } or { pool } (a node-postgres Pool)');
    }
    if (typeof options !== 'object' || options === null) invalid('options', 'must be an object');
    const schema = options.schema ?? 'docflow';
    if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) {
      invalid(
        'schema',
        `must be a lower-case identifier (letters, digits, _; at most 63), got ${JSON.stringify(schema)}`,
      );
    }
    checkOptionalCount(options.maxConnections, 'maxConnections', 2);
    checkOptionalCount(options.maxCommitTransactions, 'maxCommitTransactions', 1);
    checkOptionalCount(options.maxCommitsPerTransaction, 'maxCommitsPerTransaction', 1);
    checkOptionalString(options.applicationName, 'applicationName');
    this.#connection = connection;
    this.schema = schema;
    this.#clock = options.clock ?? systemStorageClock;
    this.#maxConnections = options.maxConnections ?? 10;
    this.#maxTransactions = options.maxCommitTransactions ?? 4;
    this.#maxCommits = options.maxCommitsPerTransaction ?? 64;
    this.#applicationName = options.applicationName ?? 'docflow';
    this.#s = postgresStatements(quoteIdentifier(schema));
    this.#channel = `docflow_${schema}`;
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
    this.#opening ??= this.#connect().finally(() => {
      this.#opening = undefined;
    });
    return this.#opening;
  }

  async #connect(): Promise<void> {
    const own = 'connectionString' in this.#connection;
    const pool =
      'connectionString' in this.#connection
        ? createOwnPool({
            connectionString: this.#connection.connectionString,
            max: this.#maxConnections,
            applicationName: this.#applicationName,
            session: SESSION_PLANNER_SETTINGS,
          })
        : oneQueryAtATime(this.#connection.pool);
    try {
      const client = await pool.connect();
      try {
        await migratePostgres(client, this.schema);
      } finally {
        client.release();
      }
    } catch (error) {
      if (own) await pool.end().catch(() => undefined);
      throw toStorageError(error, `Opening PostgreSQL schema ${this.schema} failed`);
    }
    this.#open = {
      pool,
      own,
      commits: new PostgresCommitQueue({
        pool,
        statements: this.#s,
        maxTransactions: this.#maxTransactions,
        maxCommitsPerTransaction: this.#maxCommits,
        notification: (wakeUps) => this.#notification(wakeUps),
        sessionSettings: own,
      }),
      wakeUps: new PostgresWakeUps(pool, this.#channel, this.#instance),
      documentReads: new DocumentReads({
        one: this.#s.docGet,
        many: this.#s.docGetMany,
        query: (text, values) => this.#all<PgDocumentRow>(text, values),
      }),
    };
  }

  async close(): Promise<void> {
    await this.#opening?.catch(() => undefined);
    const open = this.#open;
    if (open === undefined) return;
    this.#open = undefined;
    await open.commits.flush();
    await open.wakeUps.close();
    if (open.own) await open.pool.end();
  }

  async info(options?: AbortableOptions): Promise<PostgresStorageInfo> {
    this.#get(options);
    const row = await this.#one<{ version: string; sync: string }>(
      "SELECT current_setting('server_version') AS version, current_setting('synchronous_commit') AS sync",
      [],
    );
    const schemaVersion = await this.#withClient((c) =>
      recordedPostgresSchemaVersion(c, this.schema),
    );
    return {
      schema: this.schema,
      schemaVersion,
      channel: this.#channel,
      instance: this.#instance,
      serverVersion: row?.version ?? '',
      synchronousCommit: row?.sync ?? '',
      commits: this.#get().commits.stats(),
    };
  }

  commit(changes: Changes, options?: AbortableOptions): Promise<CommitResult> {
    try {
      const open = this.#get(options);
      validateChanges(changes);
      // Planned (and serialised) now: what is stored is what was passed, whenever it is sent.
      const plan = planCommit(changes, this.#clock.now().getTime(), this.#s);
      return open.commits.submit(plan);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async getDocument(
    collection: CollectionName,
    id: string,
    options?: AbortableOptions,
  ): Promise<StoredDocument | undefined> {
    const { documentReads } = this.#get(options);
    checkCollection(collection, 'collection');
    checkString(id, 'id');
    const row = await documentReads.get(collection, id);
    return row === undefined ? undefined : documentFromPg(row);
  }

  async getDocumentByKey(
    collection: CollectionName,
    key: string,
    options?: AbortableOptions,
  ): Promise<StoredDocument | undefined> {
    this.#get(options);
    checkCollection(collection, 'collection');
    checkString(key, 'key');
    const row = await this.#one<PgDocumentRow>(this.#s.docGetByKey, [collection, key]);
    return row === undefined ? undefined : documentFromPg(row);
  }

  async listDocuments(
    collection: CollectionName,
    query: DocumentQuery = {},
  ): Promise<Page<StoredDocument>> {
    this.#get(query);
    const { q, filters } = documentListQuery(collection, query);
    const rows = await this.#list<PgDocumentRow & { readonly seq: number }>(
      'documents',
      'r.*',
      filters,
      q,
    );
    return toPage(rows, q, (r) => r.seq, documentFromPg);
  }

  async getRun(id: string, options?: AbortableOptions): Promise<RunRecord | undefined> {
    this.#get(options);
    checkString(id, 'id');
    const row = await this.#one<PgRunRow>(this.#s.runGet, [id]);
    return row === undefined ? undefined : runFromPg(row);
  }

  async listRuns(query: RunQuery = {}): Promise<Page<RunRecord>> {
    this.#get(query);
    const { q, filters } = runListQuery(query);
    const rows = await this.#list<PgRunRow>('runs', this.#s.runColumns, filters, q);
    return toPage(rows, q, (r) => r.seq, runFromPg);
  }

  async listRunEvents(
    runId: string,
    options: AbortableOptions & { afterSeq?: number; limit?: number } = {},
  ): Promise<readonly RunEventRecord[]> {
    this.#get(options);
    checkString(runId, 'runId');
    checkOptionalCount(options.afterSeq, 'afterSeq', 0);
    checkOptionalCount(options.limit, 'limit', 1);
    const after = options.afterSeq ?? 0;
    const rows = await this.#all<PgEventsRow>(
      options.limit === undefined ? this.#s.eventsAfter : this.#s.eventsAfterLimit,
      options.limit === undefined ? [runId, after] : [runId, after, options.limit],
    );
    const events: RunEventRecord[] = [];
    for (const row of rows) eventsFromPg(row, after, events);
    return options.limit === undefined ? events : events.slice(0, options.limit);
  }

  async claimWork(options: ClaimWorkOptions): Promise<readonly WorkItem[]> {
    this.#get(options);
    checkClaim(options);
    if (options.kinds !== undefined) checkIds(options.kinds, 'kinds');
    const nowMs = this.#now(options.now);
    const args = [options.owner, nowMs + options.leaseMs, nowMs, options.limit];
    const rows =
      options.kinds === undefined
        ? await this.#all<PgWorkRow>(this.#s.workClaim, args)
        : await this.#all<PgWorkRow>(this.#s.workClaimKinds, [...args, options.kinds]);
    // RETURNING gives rows in no promised order.
    return [...rows].sort((a, b) => a.priority - b.priority || a.seq - b.seq).map(workFromPg);
  }

  async renewWork(
    ids: readonly string[],
    options: { owner: string; leaseMs: number; now?: string } & AbortableOptions,
  ): Promise<readonly string[]> {
    this.#get(options);
    checkIds(ids, 'ids');
    checkClaim({ owner: options.owner, limit: 1, leaseMs: options.leaseMs, now: options.now });
    if (ids.length === 0) return [];
    const expires = this.#now(options.now) + options.leaseMs;
    // Planned for their size when it was last analyzed, renewals and releases read a small queue
    // table whole, with the dead row every step leaves there until the next vacuum: on keys.
    const { rows } = await this.#inTransaction(
      BEGIN_COMMIT,
      queryConfig(this.#s.workRenew, [[...ids], options.owner, expires], true),
    );
    const held = new Set(rows.map((r) => r.id as string));
    return ids.filter((id) => held.has(id));
  }

  async releaseWork(
    ids: readonly string[],
    options: { owner: string; availableAt?: string } & AbortableOptions,
  ): Promise<void> {
    this.#get(options);
    checkIds(ids, 'ids');
    checkString(options.owner, 'owner');
    checkOptionalTime(options.availableAt, 'availableAt');
    if (ids.length === 0) return;
    const availableMs =
      options.availableAt === undefined ? null : parseTime(options.availableAt, 'availableAt');
    await this.#withClient(async (client) => {
      const { rows } = await this.#inTransaction(
        BEGIN_COMMIT,
        queryConfig(this.#s.workRelease, [[...ids], options.owner, availableMs], true),
        client,
      );
      if (rows.length === 0) return;
      // Released work is claimable by anyone: wake the others.
      const at = Math.min(...rows.map((r) => r.available_at as number));
      const priority = Math.min(...rows.map((r) => r.priority as number));
      const notice = this.#notification({ work: { at, priority } });
      if (notice !== undefined) await client.query(notice);
    });
  }

  async listWork(
    options: AbortableOptions & { runId?: string } = {},
  ): Promise<readonly WorkItem[]> {
    this.#get(options);
    checkOptionalString(options.runId, 'runId');
    const rows =
      options.runId === undefined
        ? await this.#all<PgWorkRow>(this.#s.workList, [])
        : await this.#all<PgWorkRow>(this.#s.workListByRun, [options.runId]);
    return rows.map(workFromPg);
  }

  async claimDeliveries(options: ClaimOptions): Promise<readonly DeliveryRecord[]> {
    this.#get(options);
    checkClaim(options);
    const nowMs = this.#now(options.now);
    const rows = await this.#all<PgDeliveryRow>(this.#s.deliveryClaim, [
      options.owner,
      nowMs + options.leaseMs,
      nowMs,
      options.limit,
    ]);
    return [...rows]
      .sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.seq - b.seq)
      .map(deliveryFromPg);
  }

  async getDelivery(id: string, options?: AbortableOptions): Promise<DeliveryRecord | undefined> {
    this.#get(options);
    checkString(id, 'id');
    const row = await this.#one<PgDeliveryRow>(this.#s.deliveryGet, [id]);
    return row === undefined ? undefined : deliveryFromPg(row);
  }

  async listDeliveries(query: DeliveryQuery = {}): Promise<Page<DeliveryRecord>> {
    this.#get(query);
    const { q, filters } = deliveryListQuery(query);
    const rows = await this.#list<PgDeliveryRow>('deliveries', 'r.*', filters, q);
    return toPage(rows, q, (r) => r.seq, deliveryFromPg);
  }

  async nextClaimableAt(options: NextClaimableOptions = {}): Promise<ClaimableTimes> {
    this.#get(options);
    if (options.kinds !== undefined) checkIds(options.kinds, 'kinds');
    const work = await this.#one<{ at: number | null }>(
      options.kinds === undefined ? this.#s.workNextClaimable : this.#s.workNextClaimableKinds,
      options.kinds === undefined ? [] : [options.kinds],
    );
    const deliveries = await this.#one<{ at: number | null }>(this.#s.deliveryNextClaimable, []);
    return claimableTimes(
      work?.at ?? Number.POSITIVE_INFINITY,
      deliveries?.at ?? Number.POSITIVE_INFINITY,
    );
  }

  async subscribe(
    listener: (wakeUp: StorageWakeUp) => void,
    options?: AbortableOptions,
  ): Promise<Unsubscribe> {
    const open = this.#get(options);
    if (typeof listener !== 'function') invalid('listener', 'must be a function');
    try {
      return await open.wakeUps.subscribe(listener);
    } catch (error) {
      throw toStorageError(error, 'Listening for wake-ups failed');
    }
  }

  /** The notification telling other processes what became claimable, if anything did. */
  #notification(wakeUps: CommitWakeUps): PostgresQuery | undefined {
    const payload = wakeUpPayload(this.#instance, wakeUps);
    return payload === undefined
      ? undefined
      : queryConfig(this.#s.notify, [this.#channel, payload], true);
  }

  #now(now: string | undefined): number {
    return now === undefined ? this.#clock.now().getTime() : parseTime(now, 'now');
  }

  /** A keyset page: the filters, the cursor on `seq`, one row past the page. */
  #list<R>(
    table: 'documents' | 'runs' | 'deliveries',
    columns: string,
    filters: readonly SqlListFilter[],
    q: KeysetQuery,
  ): Promise<R[]> {
    const values: unknown[] = [];
    const param = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    const conditions = filters.map((f) =>
      f.op === 'contains'
        ? `strpos(name_folded, ${param(f.value)}) > 0`
        : `${f.column} = ${param(f.value)}`,
    );
    // By update time the key is (updated_at, seq), compared byte-wise like the other adapters
    // (RFC 3339 text of one format). No index covers it: the filtered rows are sorted, as an
    // index on updated_at would cost every run commit its HOT update (see the runs table).
    const byUpdate = q.sortBy === 'updatedAt';
    const key = byUpdate ? ['updated_at COLLATE "C"', 'seq'] : ['seq'];
    const after = q.order === 'asc' ? '>' : '<';
    if (q.afterSeq !== undefined) {
      conditions.push(
        byUpdate
          ? `(updated_at COLLATE "C", seq) ${after} (${param(q.afterUpdatedAt)}, ${param(q.afterSeq)})`
          : `seq ${after} ${param(q.afterSeq)}`,
      );
    }
    const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
    const order = q.order === 'asc' ? 'ASC' : 'DESC';
    const orderBy = (prefix: string) => key.map((k) => `${prefix}${k} ${order}`).join(', ');
    // The page's keys first, then their rows: whatever plan finds the keys (a sort, when the
    // planner has no statistics yet), only the page's rows are read whole.
    const t = this.#s.table(table);
    const page = `SELECT ${byUpdate ? 'seq, updated_at' : 'seq'} FROM ${t}${where} ORDER BY ${orderBy('')} LIMIT ${param(q.pageSize + 1)}`;
    const sql = `SELECT ${columns} FROM ${t} r JOIN (${page}) p ON p.seq = r.seq ORDER BY ${orderBy('p.')}`;
    // A page by update time is sorted (no index to keep a plan on): planned as the server
    // chooses, except on the adapter's own connections, whose sessions keep generic plans.
    if (byUpdate) return this.#all<R>(sql, values);
    return this.#inTransaction(BEGIN_LIST, queryConfig(sql, values, true)).then(
      (result) => result.rows as R[],
    );
  }

  /**
   * Runs `query` under the planner settings: alone on the adapter's own connections, whose
   * sessions have them (`SESSION_PLANNER_SETTINGS`), otherwise in a transaction begun by `begin`
   * (its settings), sent together with BEGIN and COMMIT (one round trip); on `client` or a
   * pooled connection.
   */
  async #inTransaction(
    begin: string,
    query: PostgresQuery,
    client?: PostgresClient,
  ): Promise<PostgresResult> {
    if (client === undefined) {
      return this.#withClient((pooled) => this.#inTransaction(begin, query, pooled));
    }
    if (this.#get().own) return sendCorked(client, () => client.query(query));
    const [began, answer, committed] = await Promise.allSettled(
      sendCorked(client, () => [
        client.query(queryConfig(begin)),
        client.query(query),
        client.query(queryConfig('COMMIT')),
      ]),
    );
    if (began.status === 'rejected') throw began.reason;
    if (answer.status === 'rejected') throw answer.reason;
    if (committed.status === 'rejected') throw committed.reason;
    return answer.value;
  }

  async #withClient<T>(fn: (client: PostgresClient) => Promise<T>): Promise<T> {
    const { pool } = this.#get();
    let client: PostgresClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw toStorageError(error, 'PostgreSQL connection failed');
    }
    let broken = false;
    try {
      return await fn(client);
    } catch (error) {
      broken = !(error instanceof Error && 'code' in error);
      throw toStorageError(error);
    } finally {
      client.release(broken);
    }
  }

  async #all<R>(text: string, values: readonly unknown[]): Promise<R[]> {
    return this.#withClient(
      async (client) =>
        (await sendCorked(client, () => client.query(queryConfig(text, values, true)))).rows as R[],
    );
  }

  async #one<R>(text: string, values: readonly unknown[]): Promise<R | undefined> {
    return (await this.#all<R>(text, values))[0];
  }

  #blobStore(): BlobStore {
    return {
      put: async (key, bytes, options) => {
        this.#get(options);
        checkBlobPut(key, bytes);
        const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        await this.#all(this.#s.blobPut, [key, buffer]);
      },
      get: async (key, options) => {
        this.#get(options);
        checkString(key, 'key');
        const row = await this.#one<{ bytes: Buffer }>(this.#s.blobGet, [key]);
        return row === undefined ? undefined : new Uint8Array(row.bytes);
      },
      delete: async (key, options) => {
        this.#get(options);
        checkString(key, 'key');
        await this.#all(this.#s.blobDelete, [key]);
      },
      keys: async (prefix, options) => {
        this.#get(options);
        checkString(prefix, 'prefix');
        const rows = await this.#all<{ key: string }>(this.#s.blobKeys, [prefix]);
        return rows.map((row) => row.key);
      },
    };
  }
}

/**
 * Creates a {@link StorageAdapter} over PostgreSQL (node-postgres). `open()` creates the schema
 * (default `docflow`) and applies pending migrations, under an advisory lock so that processes
 * starting together are safe; it refuses a schema written by a newer version. Several processes
 * (several engines) may open the same schema: claims, leases, fences and wake-ups make them
 * share the work.
 *
 * @example
 * const storage = postgresStorage({ connectionString: process.env.DATABASE_URL! });
 * await storage.open();
 */
export function postgresStorage(
  connection: PostgresConnection,
  options: PostgresStorageOptions = {},
): PostgresStorageAdapter {
  return new PostgresStorage(connection, options);
}
