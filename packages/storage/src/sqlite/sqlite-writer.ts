import type BetterSqlite3 from 'better-sqlite3';
import { revisionsByKey } from '../internal/revisions-by-key.ts';
import {
  duplicateKey,
  leaseHolder,
  leaseLost,
  revisionConflict,
} from '../internal/storage-errors.ts';
import { formatTime, parseTime, timeOr } from '../internal/time.ts';
import type { CommitResult } from '../storage-adapter.ts';
import type { SerializedChanges } from './serialized-changes.ts';
import { runSql, toStorageError } from './sqlite-connection.ts';
import type { DeliveryRow, WorkRow } from './sqlite-rows.ts';
import type { SqliteStatements } from './sqlite-statements.ts';
import { prepareStatements } from './sqlite-statements.ts';

type Statement<R = unknown> = BetterSqlite3.Statement<unknown[], R>;

/** How one commit of a group ended. */
export type CommitOutcome =
  | { readonly ok: true; readonly result: CommitResult }
  | { readonly ok: false; readonly error: unknown };

/** One commit of a group, as queued by the adapter. */
export interface GroupedCommit {
  readonly changes: SerializedChanges;
  readonly nowMs: number;
}

/**
 * What the writer last wrote of a run: its revision, its event count, its indexed columns (kind,
 * workflow id, batch id, status, active) and priority, and the revisions its `runs` row and its
 * stored snapshot are at. Valid while no other connection has written the file: the writer
 * forgets everything when `PRAGMA data_version` says one did (checked at each group's start),
 * and on every rollback.
 */
interface KnownRun {
  /** The run's `seq`, which keys its row of `run_snapshots`. */
  readonly seq: number;
  readonly revision: number;
  readonly eventSeq: number;
  readonly indexed: readonly unknown[];
  readonly priority: number;
  /** The revision in the `runs` row, behind `revision` after commits that stored a patch only. */
  readonly rowRevision: number;
  /** The revision of the stored snapshot (`run_snapshots.base_revision`). */
  readonly baseRevision: number;
}

/** Runs the writer remembers at most; past that it starts over. */
const KNOWN_RUNS_LIMIT = 10_000;

function nullable<T>(value: T | undefined): T | null {
  return value === undefined ? null : value;
}

/**
 * Every write of the SQLite adapter, synchronous, over one connection: commits (alone or as a
 * group), claims, lease renewals and releases, blob writes. The adapter runs it in its own thread
 * or, with `writerThread`, in a worker thread of its own, where it costs the caller's event loop
 * nothing but a message. Arguments and results are plain data for that reason.
 */
export class SqliteWriter {
  readonly #db: BetterSqlite3.Database;
  readonly #s: SqliteStatements;
  readonly #t: {
    readonly begin: Statement;
    readonly commit: Statement;
    readonly rollback: Statement;
    readonly savepoint: Statement;
    readonly release: Statement;
    readonly rollbackTo: Statement;
  };
  #indexedUpdates: (Statement | undefined)[] = [];
  readonly #dataVersion: Statement;
  /** `PRAGMA data_version` at the start of the last group: it changes when others commit. */
  #lastDataVersion: unknown;
  /** Runs written by this writer; forgotten whenever a transaction or savepoint rolls back. */
  readonly #known = new Map<string, KnownRun>();
  #docSeq = 0;
  #runSeq = 0;
  #workSeq = 0;
  #deliverySeq = 0;

  /** `db` must be open and migrated. */
  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
    const s = prepareStatements(db);
    this.#s = s;
    const seq = (name: 'documents' | 'runs', max: number) =>
      Math.max(max, s.sequenceGet.get(name)?.value ?? 0);
    this.#docSeq = seq('documents', s.maxSeq.documents.get()?.seq ?? 0);
    this.#runSeq = seq('runs', s.maxSeq.runs.get()?.seq ?? 0);
    this.#workSeq = s.maxSeq.work.get()?.seq ?? 0;
    this.#deliverySeq = s.maxSeq.deliveries.get()?.seq ?? 0;
    this.#dataVersion = db.prepare('PRAGMA data_version').pluck();
    this.#t = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      savepoint: db.prepare('SAVEPOINT docflow_commit'),
      release: db.prepare('RELEASE docflow_commit'),
      rollbackTo: db.prepare('ROLLBACK TO docflow_commit'),
    };
  }

  /**
   * Group commit: every commit in one transaction. Optimistically without savepoints (each
   * costs a sub-journal of every page it touches); if one commit fails, the whole group is
   * rolled back and replayed with one savepoint each, so that it alone is rejected.
   */
  commitGroup(group: readonly GroupedCommit[]): CommitOutcome[] {
    try {
      return this.#applyGroup(group, false) ?? (this.#applyGroup(group, true) as CommitOutcome[]);
    } catch (error) {
      this.#known.clear();
      if (this.#db.inTransaction) this.#t.rollback.run();
      throw toStorageError(error);
    }
  }

  #applyGroup(group: readonly GroupedCommit[], isolated: boolean): CommitOutcome[] | undefined {
    const t = this.#t;
    const outcomes: CommitOutcome[] = [];
    t.begin.run();
    // Another connection committed since this writer's last group: what it remembers of the runs
    // it wrote may be stale.
    const version = this.#dataVersion.get();
    if (version !== this.#lastDataVersion) {
      this.#known.clear();
      this.#lastDataVersion = version;
    }
    for (const p of group) {
      if (isolated) t.savepoint.run();
      try {
        const result = this.#apply(p.changes, p.nowMs);
        if (isolated) t.release.run();
        outcomes.push({ ok: true, result });
      } catch (error) {
        this.#known.clear();
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

  /** Applies one commit inside an open transaction; throws to roll it back. */
  #apply(serialized: SerializedChanges, nowMs: number): CommitResult {
    const s = this.#s;
    const changes = serialized.changes;
    const runRevisions = revisionsByKey();
    const documentRevisions = revisionsByKey();

    for (const f of changes.fences ?? []) {
      if ('workId' in f) {
        const row = s.workLease.get(f.workId, f.workId);
        if (row?.lease_owner !== f.owner || row.attempts !== f.attempts) {
          const holder =
            row === undefined || row.lease_owner === null
              ? undefined
              : { leaseOwner: row.lease_owner, attempts: row.attempts };
          throw leaseLost(`work/${f.workId}`, f.owner, leaseHolder(holder));
        }
      } else {
        const row = s.deliveryLease.get(f.deliveryId);
        if (row?.lease_owner !== f.owner) {
          throw leaseLost(`deliveries/${f.deliveryId}`, f.owner, row?.lease_owner ?? undefined);
        }
      }
    }

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
        s.snapshotDelete.run(id);
        deleted = s.runDelete.run(id).changes > 0 || deleted;
        this.#known.delete(id);
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
        const snapshot = serialized.runSnapshots[i];
        const packed = serialized.runEvents[i];
        const patch = serialized.runPatches[i];
        let firstEventSeq = 1;
        const now = [
          r.kind,
          nullable(r.workflowId),
          nullable(r.batchId),
          r.status,
          r.active ? 1 : 0,
        ];
        if (r.expectedRevision === 0) {
          const inserted = s.runInsert.run(
            r.id,
            r.kind,
            nullable(r.workflowId),
            nullable(r.batchId),
            r.status,
            r.active ? 1 : 0,
            r.priority,
            eventCount,
            at,
            at,
            this.#runSeq + 1,
          );
          if (inserted.changes === 0) throw this.#runConflict(r.id, r.expectedRevision);
          const seq = ++this.#runSeq;
          s.snapshotInsert.run(seq, eventCount, snapshot);
          if (r.active) {
            this.#remember(r.id, {
              seq,
              revision: 1,
              eventSeq: eventCount,
              indexed: now,
              priority: r.priority,
              rowRevision: 1,
              baseRevision: 1,
            });
          }
        } else {
          // The run as this writer last wrote it; otherwise as stored (read, about 3 µs more).
          const known = this.#known.get(r.id) ?? this.#storedRun(r.id) ?? this.#throwMissing(r);
          if (known.revision !== r.expectedRevision) {
            throw revisionConflict(`runs/${r.id}`, r.expectedRevision, known.revision);
          }
          if (snapshot === undefined && (packed === undefined || patch === undefined)) {
            throw new Error(`run ${r.id}: neither a snapshot nor a patch with events to store`);
          }
          // Only the columns that changed: SQLite rewrites the index of every column it SETs.
          const changed: unknown[] = [];
          let mask = 0;
          for (let c = 0; c < 5; c++) {
            if (now[c] === known.indexed[c]) continue;
            mask |= 1 << c;
            changed.push(now[c]);
          }
          const eventsBefore = known.eventSeq;
          let rowRevision = known.rowRevision;
          // A commit that stores its patch and changes no column of the run's row leaves the row
          // as it is, once the row shows that patches follow its snapshot (its revision is past
          // the snapshot's): the patch's event row carries the revision, and readers take it
          // from there. The run row's UPDATE was a fifth of such a commit's statements' time.
          const patchOnly =
            snapshot === undefined &&
            mask === 0 &&
            r.priority === known.priority &&
            known.rowRevision !== known.baseRevision;
          if (!patchOnly) {
            const updated = s.runUpdateAt.run(
              r.priority,
              revision,
              eventsBefore + eventCount,
              at,
              r.id,
              known.rowRevision,
            );
            if (updated.changes !== 1) throw this.#runConflict(r.id, r.expectedRevision);
            rowRevision = revision;
            if (mask !== 0) this.#runIndexedUpdate(mask).run(...changed, r.id);
          }
          if (snapshot !== undefined) {
            s.snapshotUpdate.run(revision, eventsBefore + eventCount, snapshot, known.seq);
          }
          firstEventSeq = eventsBefore + 1;
          if (r.active) {
            this.#remember(r.id, {
              seq: known.seq,
              revision,
              eventSeq: eventsBefore + eventCount,
              indexed: now,
              priority: r.priority,
              rowRevision,
              baseRevision: snapshot === undefined ? known.baseRevision : revision,
            });
          } else this.#known.delete(r.id);
        }
        if (packed !== undefined) {
          s.eventInsert.run(
            r.id,
            firstEventSeq,
            firstEventSeq + eventCount - 1,
            packed,
            revision,
            at,
            patch ?? null,
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

  #remember(id: string, run: KnownRun): void {
    if (this.#known.size >= KNOWN_RUNS_LIMIT) this.#known.clear();
    this.#known.set(id, run);
  }

  /**
   * A run as stored: its row, and where the row is behind its event rows (commits that stored a
   * patch only), the revision and event count of its last event row.
   */
  #storedRun(id: string): KnownRun | undefined {
    const row = this.#s.runState.get(id);
    if (row === undefined) return undefined;
    let revision = row.revision;
    let eventSeq = row.event_seq;
    if (row.revision !== row.base_revision) {
      const last = this.#s.lastEvent.get(id);
      if (last !== undefined && last.revision > revision) {
        revision = last.revision;
        eventSeq = last.last_seq;
      }
    }
    return {
      seq: row.seq,
      revision,
      eventSeq,
      indexed: [row.kind, row.workflow_id, row.batch_id, row.status, row.active],
      priority: row.priority,
      rowRevision: row.revision,
      baseRevision: row.base_revision,
    };
  }

  #throwMissing(r: { readonly id: string; readonly expectedRevision: number }): never {
    throw revisionConflict(`runs/${r.id}`, r.expectedRevision, undefined);
  }

  /** The UPDATE of the indexed run columns in `mask` (kind, workflow, batch, status, active). */
  #runIndexedUpdate(mask: number): Statement {
    let statement = this.#indexedUpdates[mask];
    if (statement === undefined) {
      const columns = ['kind', 'workflow_id', 'batch_id', 'status', 'active'].filter(
        (_, i) => (mask & (1 << i)) !== 0,
      );
      statement = this.#db.prepare(
        `UPDATE runs SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`,
      );
      this.#indexedUpdates[mask] = statement;
    }
    return statement;
  }

  #runConflict(id: string, expected: number) {
    return revisionConflict(`runs/${id}`, expected, this.#storedRun(id)?.revision);
  }

  /** Claims up to `limit` claimable items, ordered by priority then enqueue order. */
  claimWork(args: {
    readonly nowMs: number;
    readonly owner: string;
    readonly leaseMs: number;
    readonly limit: number;
    readonly kinds?: readonly string[] | undefined;
  }): WorkRow[] {
    const s = this.#s;
    const { nowMs, owner, limit } = args;
    const expires = nowMs + args.leaseMs;
    const rows = runSql(() => {
      this.#requeueExpiredLeases(nowMs);
      return args.kinds === undefined
        ? s.workClaim.all({ now: nowMs, owner, expires, limit })
        : s.workClaimKinds.all({
            now: nowMs,
            owner,
            expires,
            limit,
            kinds: JSON.stringify(args.kinds),
          });
    });
    // RETURNING gives rows in no promised order.
    return rows.sort((a, b) => a.priority - b.priority || a.seq - b.seq);
  }

  /** Moves items whose enqueue-time lease expired (their engine died) back to the queue. */
  #requeueExpiredLeases(nowMs: number): void {
    const s = this.#s;
    if (s.workLeasedExpired.get(nowMs) !== undefined) {
      this.#db
        .transaction(() => {
          s.workLeasedRequeue.run(nowMs);
          s.workLeasedRequeueDelete.run(nowMs);
        })
        .immediate();
    }
  }

  /** Extends the leases `owner` holds among `ids`; returns the ids it still holds. */
  renewWork(ids: readonly string[], owner: string, expires: number): string[] {
    const s = this.#s;
    return runSql(
      this.#db.transaction(() =>
        ids.filter(
          (id) =>
            s.workLeasedRenew.run(expires, id, owner).changes > 0 ||
            s.workRenew.run(expires, id, owner).changes > 0,
        ),
      ),
    );
  }

  /** Gives back the items `owner` holds among `ids`, optionally available only later. */
  releaseWork(ids: readonly string[], owner: string, availableMs: number | null): void {
    const s = this.#s;
    runSql(
      this.#db.transaction(() => {
        for (const id of ids) {
          if (s.workLeasedRelease.run(availableMs, id, owner).changes > 0) {
            s.workLeasedReleaseDelete.run(id, owner);
          } else s.workRelease.run(availableMs, id, owner);
        }
      }),
    );
  }

  /** Claims due pending deliveries, oldest first. */
  claimDeliveries(args: {
    readonly nowMs: number;
    readonly owner: string;
    readonly leaseMs: number;
    readonly limit: number;
  }): DeliveryRow[] {
    const rows = runSql(() =>
      this.#s.deliveryClaim.all({
        now: args.nowMs,
        owner: args.owner,
        expires: args.nowMs + args.leaseMs,
        limit: args.limit,
      }),
    );
    return rows.sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.seq - b.seq);
  }

  putBlob(key: string, bytes: Uint8Array): void {
    runSql(() =>
      this.#s.blobPut.run(key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
    );
  }

  deleteBlob(key: string): void {
    runSql(() => this.#s.blobDelete.run(key));
  }
}
