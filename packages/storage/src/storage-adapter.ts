/**
 * The storage contract of docflow. The engine persists everything through this interface and
 * nothing else; adapters (memory, SQLite, later PostgreSQL) implement it and prove it with
 * `describeStorageContract` from `@docflow/storage/testing`.
 *
 * The contract is small and data-shaped (Kysely's dialect lesson): resources are JSON documents in
 * named collections with a few indexed columns, runs are a snapshot with a revision plus an
 * append-only event log, and every write goes through {@link StorageAdapter.commit}, one atomic unit
 * of work, so that a state change and the events, queue items and outbox rows it causes are
 * committed together or not at all.
 */

import type { JsonObject } from './json-value.ts';
import type { SnapshotPatchOp } from './snapshot-patch.ts';

/** Options every async contract method accepts. */
export interface AbortableOptions {
  readonly signal?: AbortSignal;
}

/** Durability of commits. See `docs/operations.md`. */
export type Durability = 'full' | 'normal' | 'batched';

/**
 * Collections of resource documents. Runs, run events, queue items and deliveries have their own
 * typed tables; everything else is a document.
 */
export const COLLECTIONS = [
  'workflows',
  'workflowVersions',
  'files',
  'webhookEndpoints',
  'webhookSubscriptions',
  'processors',
  'processorVersions',
  'processorRuns',
  'parseRuns',
] as const;

/** The name of a document collection. */
export type CollectionName = (typeof COLLECTIONS)[number];

export type { JsonObject, JsonValue } from './json-value.ts';

/**
 * A resource document. `parentId` and `key` are the two indexed lookups besides `id`:
 * `parentId` groups documents for listing (a workflow's versions, an endpoint's subscriptions),
 * `key` is unique within a collection when present (a subscription's endpoint+resource pair).
 */
export interface StoredDocument {
  readonly collection: CollectionName;
  readonly id: string;
  /** Groups documents for `listDocuments({ parentId })`. */
  readonly parentId?: string | undefined;
  /** A second grouping for `listDocuments({ secondaryId })` (a subscription's resource id). */
  readonly secondaryId?: string | undefined;
  /** Unique within the collection when present. */
  readonly key?: string | undefined;
  /** Matched by `listDocuments({ nameContains })`, case-insensitively. */
  readonly name?: string | undefined;
  /** Reference to bytes in the blob store, when the document owns some. */
  readonly blobKey?: string | undefined;
  readonly data: JsonObject;
  /** Starts at 1 and increases by one on every write of the document. */
  readonly revision: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A document to write; the adapter sets `revision` and `updatedAt` and keeps `createdAt`. */
export interface DocumentWrite {
  readonly collection: CollectionName;
  readonly id: string;
  readonly parentId?: string | undefined;
  readonly secondaryId?: string | undefined;
  readonly key?: string | undefined;
  readonly name?: string | undefined;
  readonly blobKey?: string | undefined;
  readonly data: JsonObject;
  /**
   * Optimistic concurrency: `0` means "must not exist yet", a positive number means "must currently
   * have this revision", omitted means "write whatever is there".
   */
  readonly expectedRevision?: number | undefined;
  /** RFC 3339; defaults to the commit time. */
  readonly at?: string | undefined;
}

/** The status columns of a run the adapter indexes. The full state lives in `snapshot`. */
export interface RunRecord {
  readonly id: string;
  /** Which kind of run ("workflow_run", "extract_run", …). */
  readonly kind: string;
  readonly workflowId?: string | undefined;
  readonly batchId?: string | undefined;
  readonly status: string;
  /** True while the run is not in a final state; recovery lists these. */
  readonly active: boolean;
  readonly priority: number;
  readonly snapshot: JsonObject;
  readonly revision: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A run write: the new snapshot replaces the old one only if `expectedRevision` matches. */
export interface RunWrite {
  readonly id: string;
  readonly kind: string;
  readonly workflowId?: string | undefined;
  readonly batchId?: string | undefined;
  readonly status: string;
  readonly active: boolean;
  readonly priority: number;
  readonly snapshot: JsonObject;
  /** `0` creates the run; otherwise the current revision, which the write increments by one. */
  readonly expectedRevision: number;
  /** Events appended in the same transaction, in order. */
  readonly events?: readonly RunEventInput[] | undefined;
  readonly at?: string | undefined;
  /**
   * How `snapshot` differs from the run's snapshot at `expectedRevision`, when the caller knows
   * (`snapshotPatch` makes one for states that share what did not change): applied in order to
   * that snapshot, it must give `snapshot`. An adapter may store it instead of the whole snapshot
   * (the SQLite adapter does while the run is active), so a patch that does not fit is a wrong
   * stored state: the engine checks each of its patches in its test suites.
   */
  readonly patch?: readonly SnapshotPatchOp[] | undefined;
  /**
   * The write settles the run: callers may be waiting for this state (the engine's `waitFor`).
   * An adapter with `subscribe` tells every subscriber, in every process (topic `runs`); others
   * ignore it.
   */
  readonly settles?: boolean | undefined;
}

/** An event to append to a run's log. */
export interface RunEventInput {
  readonly type: string;
  readonly data: JsonObject;
}

/** An event in a run's append-only log. `seq` is 1, 2, 3… per run. */
export interface RunEventRecord {
  readonly runId: string;
  readonly seq: number;
  readonly type: string;
  readonly data: JsonObject;
  /** The run revision that this event was committed with. */
  readonly revision: number;
  readonly at: string;
}

/** Work to enqueue. `id` is chosen by the caller so that enqueuing is idempotent. */
export interface WorkItemInput {
  readonly id: string;
  readonly runId: string;
  /** What kind of work ("step", "resume", …); claimers may filter by it. */
  readonly kind: string;
  /** 1 (most urgent) to 100. */
  readonly priority: number;
  /** Not claimable before this time (RFC 3339); defaults to now. Used for retry backoff. */
  readonly availableAt?: string | undefined;
  readonly payload: JsonObject;
  /**
   * Enqueue the item already claimed by `owner` for `leaseMs` (its first attempt): the enqueuer
   * runs it at once without a separate claim. Until the lease expires nobody else can claim it.
   */
  readonly lease?: { readonly owner: string; readonly leaseMs: number } | undefined;
}

/** A queued or claimed work item. */
export interface WorkItem {
  readonly id: string;
  readonly runId: string;
  readonly kind: string;
  readonly priority: number;
  /** Monotonic enqueue order; FIFO within a priority. */
  readonly seq: number;
  readonly availableAt: string;
  readonly payload: JsonObject;
  /** How many times the item was claimed, this claim included. */
  readonly attempts: number;
  readonly leaseOwner?: string | undefined;
  readonly leaseExpiresAt?: string | undefined;
}

/** The status of an outbox delivery. */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One attempt to deliver, as recorded. */
export interface DeliveryAttempt {
  readonly at: string;
  readonly status?: number | undefined;
  readonly durationMs: number;
  readonly error?: string | undefined;
}

/** An outbox row: one event to one endpoint. */
export interface DeliveryRecord {
  readonly id: string;
  readonly endpointId: string;
  readonly eventId: string;
  readonly eventType: string;
  /** The event object as JSON (`{ eventId, eventType, payload }`). */
  readonly event: JsonObject;
  readonly status: DeliveryStatus;
  readonly attempts: readonly DeliveryAttempt[];
  /** When the next attempt may start (RFC 3339). */
  readonly nextAttemptAt: string;
  readonly leaseOwner?: string | undefined;
  readonly leaseExpiresAt?: string | undefined;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A delivery write (insert or replace by id). */
export interface DeliveryWrite {
  readonly id: string;
  readonly endpointId: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly event: JsonObject;
  readonly status: DeliveryStatus;
  readonly attempts: readonly DeliveryAttempt[];
  readonly nextAttemptAt: string;
  /** Set to release the lease (the default on every write). */
  readonly leaseOwner?: undefined;
  readonly at?: string | undefined;
}

/**
 * A lease the commit's author must still hold for the commit to apply: fencing, so that a
 * process whose lease expired and was taken over cannot commit the outcome of work that is now
 * someone else's. Held means the row exists and is leased to `owner` (expired or not, as long as
 * nobody claimed it since), and for work that `attempts` is still the count the holder's claim
 * returned: a later claim, even by the same owner, increments it. Checked before any part of the
 * commit applies, against the stored state; a lease not held fails the whole commit with
 * `LEASE_LOST`. Adapters shared by several processes keep the fenced rows locked until the commit
 * ends, so that no claim takes them in between.
 */
export type LeaseFence =
  | {
      /** A work item's id. */
      readonly workId: string;
      readonly owner: string;
      /** `WorkItem.attempts` as the holder's claim (or leased enqueue: 1) returned it. */
      readonly attempts: number;
    }
  | {
      /** A delivery's id. */
      readonly deliveryId: string;
      readonly owner: string;
    };

/**
 * One atomic unit of work. Everything in it commits together or nothing does.
 *
 * `fences` are checked first. Parts apply in this order, each seeing the ones before: `deleteDocuments`, `documents`,
 * `deleteRuns`, `runs`, `dequeue`, `enqueue`, `deliveries`. So a commit can delete and re-create
 * a document or run, or dequeue a finished item and enqueue the same id afresh. Within a part,
 * entries apply in array order (two writes of one run in one commit need revisions 0 then 1).
 */
export interface Changes {
  /** Leases that must still be held (see {@link LeaseFence}); checked before everything else. */
  readonly fences?: readonly LeaseFence[] | undefined;
  readonly documents?: readonly DocumentWrite[] | undefined;
  readonly deleteDocuments?:
    | readonly { readonly collection: CollectionName; readonly id: string }[]
    | undefined;
  readonly runs?: readonly RunWrite[] | undefined;
  /** Deletes runs with their events and queue items. */
  readonly deleteRuns?: readonly string[] | undefined;
  /** Enqueue work; an id that is already queued is left as it is. */
  readonly enqueue?: readonly WorkItemInput[] | undefined;
  /** Remove queue items (done or obsolete), whoever holds them. */
  readonly dequeue?: readonly string[] | undefined;
  readonly deliveries?: readonly DeliveryWrite[] | undefined;
}

/** What a commit did. */
export interface CommitResult {
  /**
   * New revision per written run id. Both records may be objects without a prototype (ids as
   * keys, new with each commit, made a new hidden class each on an ordinary object): read them by
   * key, `in`, `Object.keys` or `Object.hasOwn`, not with `Object.prototype`'s methods.
   */
  readonly runRevisions: Readonly<Record<string, number>>;
  /** New revision per written document (`collection/id`). */
  readonly documentRevisions: Readonly<Record<string, number>>;
}

/** A page of a list query. */
export interface Page<T> {
  readonly items: readonly T[];
  /** Opaque cursor to the next page; absent on the last page. */
  readonly nextPageToken?: string | undefined;
}

/** Common list options. */
export interface ListOptions extends AbortableOptions {
  /** Default `desc` (newest first). */
  readonly order?: 'asc' | 'desc' | undefined;
  /**
   * What `order` orders by: `createdAt` (the default; creation order) or `updatedAt` (time of
   * the last write, ties in creation order). A row written between two pages moves in an
   * `updatedAt` list: it can be seen twice or not at all, as with any keyset over a moving key.
   */
  readonly sortBy?: 'createdAt' | 'updatedAt' | undefined;
  /** Default 10. */
  readonly pageSize?: number | undefined;
  readonly pageToken?: string | undefined;
}

/** Filters for {@link StorageAdapter.listDocuments}. */
export interface DocumentQuery extends ListOptions {
  readonly parentId?: string | undefined;
  readonly secondaryId?: string | undefined;
  readonly nameContains?: string | undefined;
}

/** Filters for {@link StorageAdapter.listRuns}. */
export interface RunQuery extends ListOptions {
  readonly kind?: string | undefined;
  readonly workflowId?: string | undefined;
  readonly batchId?: string | undefined;
  readonly status?: string | undefined;
  readonly active?: boolean | undefined;
}

/** Filters for {@link StorageAdapter.listDeliveries}. */
export interface DeliveryQuery extends ListOptions {
  readonly endpointId?: string | undefined;
  readonly eventId?: string | undefined;
  readonly status?: DeliveryStatus | undefined;
}

/** Claim options shared by the work queue and the outbox. */
export interface ClaimOptions extends AbortableOptions {
  /** Who claims; a lease names its owner. */
  readonly owner: string;
  readonly limit: number;
  readonly leaseMs: number;
  /** RFC 3339; defaults to the adapter's clock. */
  readonly now?: string | undefined;
}

/** Options for {@link StorageAdapter.claimWork}. */
export interface ClaimWorkOptions extends ClaimOptions {
  /** Only these kinds; all when omitted. */
  readonly kinds?: readonly string[] | undefined;
}

/** Options of {@link StorageAdapter.nextClaimableAt}. */
export interface NextClaimableOptions extends AbortableOptions {
  /** Only work of these kinds; all when omitted. */
  readonly kinds?: readonly string[] | undefined;
}

/**
 * When the queue and the outbox next have something to claim: for each, the earliest instant
 * from which a claim (with `now` at or after it) returns something, given what is stored, or
 * undefined when nothing is waiting. An instant at or before now means: claimable now.
 */
export interface ClaimableTimes {
  /** The earliest `availableAt` of an unleased item, or `leaseExpiresAt` of a leased one. */
  readonly work?: string | undefined;
  /** The earliest `nextAttemptAt` of a pending delivery (its lease's expiry if leased). */
  readonly deliveries?: string | undefined;
}

/**
 * A wake-up from {@link StorageAdapter.subscribe}: something may have become claimable, or runs
 * settled.
 */
export interface StorageWakeUp {
  /** Queue items, outbox deliveries, or runs written with `settles` (see {@link RunWrite}). */
  readonly topic: 'work' | 'deliveries' | 'runs';
  /**
   * The earliest time the new items become claimable (RFC 3339): at or before now for work made
   * available at once, later for delayed work (retry backoff). Absent when unknown (after the
   * adapter reconnected and may have missed wake-ups): look with a claim or `nextClaimableAt`.
   */
  readonly availableAt?: string | undefined;
  /** The most urgent priority among the work made available (work only, when known). */
  readonly priority?: number | undefined;
  /**
   * Runs: the ids of the runs that settled. Absent when unknown (after a reconnection, or too
   * many for one notification): look at every run you wait for.
   */
  readonly runIds?: readonly string[] | undefined;
  /** True when a commit or release of this adapter instance caused it (its process knows). */
  readonly local: boolean;
}

/** Ends a subscription; resolves once the adapter stopped listening for it. */
export type Unsubscribe = () => Promise<void>;

/** Bytes by reference. Blobs are written before the commit that references them. */
export interface BlobStore {
  put(key: string, bytes: Uint8Array, options?: AbortableOptions): Promise<void>;
  get(key: string, options?: AbortableOptions): Promise<Uint8Array | undefined>;
  delete(key: string, options?: AbortableOptions): Promise<void>;
  /**
   * Optional capability: the keys that start with `prefix`, in no particular order. For a sweep of
   * bytes whose referencing commit never came (a crash between the two).
   */
  keys?(prefix: string, options?: AbortableOptions): Promise<readonly string[]>;
}

/**
 * The storage contract. Every method is atomic. Methods that read return copies: mutating a result
 * never changes what is stored.
 */
export interface StorageAdapter {
  /** Adapter name, for messages ("memory", "sqlite", "postgres"). */
  readonly name: string;
  /**
   * True when other processes may use the same store at once (PostgreSQL): their claims, leases
   * and commits interleave with this adapter's, so a caller must lease what it executes and take
   * over only leases that expired. Absent or false: this process alone writes the store.
   */
  readonly sharedByProcesses?: boolean | undefined;
  /** Bytes of files and other large payloads. */
  readonly blobs: BlobStore;

  /** Opens the store and applies pending migrations. Idempotent. */
  open(options?: AbortableOptions): Promise<void>;
  /** Flushes pending commits and releases resources. Idempotent. */
  close(): Promise<void>;

  /**
   * Applies `changes` in one transaction. Throws `StorageError` with code `REVISION_CONFLICT`
   * (and changes nothing) when an expected revision does not match, `DUPLICATE_KEY` when a
   * document `key` is taken by another document.
   */
  commit(changes: Changes, options?: AbortableOptions): Promise<CommitResult>;

  getDocument(
    collection: CollectionName,
    id: string,
    options?: AbortableOptions,
  ): Promise<StoredDocument | undefined>;
  getDocumentByKey(
    collection: CollectionName,
    key: string,
    options?: AbortableOptions,
  ): Promise<StoredDocument | undefined>;
  listDocuments(collection: CollectionName, query?: DocumentQuery): Promise<Page<StoredDocument>>;

  getRun(id: string, options?: AbortableOptions): Promise<RunRecord | undefined>;
  listRuns(query?: RunQuery): Promise<Page<RunRecord>>;
  /** A run's events in `seq` order, from `afterSeq` (exclusive). */
  listRunEvents(
    runId: string,
    options?: AbortableOptions & { afterSeq?: number; limit?: number },
  ): Promise<readonly RunEventRecord[]>;

  /**
   * Claims up to `limit` available work items, most urgent first (priority ascending, then
   * enqueue order), skipping items leased to someone else until their lease expires.
   */
  claimWork(options: ClaimWorkOptions): Promise<readonly WorkItem[]>;
  /**
   * Extends leases held by `owner`; returns the ids still held. A lease that expired but was not
   * claimed by anyone else is still held (and renewed); one claimed by another owner is not.
   */
  renewWork(
    ids: readonly string[],
    options: { owner: string; leaseMs: number; now?: string } & AbortableOptions,
  ): Promise<readonly string[]>;
  /**
   * Gives claimed items back to the queue (lease cleared), optionally delayed; items held by
   * another owner are left alone. `attempts` is kept.
   */
  releaseWork(
    ids: readonly string[],
    options: { owner: string; availableAt?: string } & AbortableOptions,
  ): Promise<void>;
  /** Queue items of a run, or all of them, in claim order (for inspection and tests). */
  listWork(options?: AbortableOptions & { runId?: string }): Promise<readonly WorkItem[]>;

  /** Claims pending deliveries whose `nextAttemptAt` has come, oldest first. */
  claimDeliveries(options: ClaimOptions): Promise<readonly DeliveryRecord[]>;
  getDelivery(id: string, options?: AbortableOptions): Promise<DeliveryRecord | undefined>;
  listDeliveries(query?: DeliveryQuery): Promise<Page<DeliveryRecord>>;

  /**
   * Optional capability: when the queue and the outbox next have something claimable (see
   * {@link ClaimableTimes}), so that a process can sleep until then instead of polling.
   */
  nextClaimableAt?(options?: NextClaimableOptions): Promise<ClaimableTimes>;
  /**
   * Optional capability of stores shared by several processes: calls `listener` whenever a
   * commit of any process (this one's included, `local`) made work or deliveries claimable now
   * or later, released work, or settled runs (`RunWrite.settles`). Resolves once listening, so that nothing committed after it
   * resolves is missed; wake-ups are hints, at least once, and may come for nothing.
   */
  subscribe?(
    listener: (wakeUp: StorageWakeUp) => void,
    options?: AbortableOptions,
  ): Promise<Unsubscribe>;
}
