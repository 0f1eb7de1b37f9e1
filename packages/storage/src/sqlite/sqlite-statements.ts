import type BetterSqlite3 from 'better-sqlite3';
import type {
  DeliveryRow,
  DocumentRow,
  PatchRow,
  RunEventRow,
  RunRow,
  WorkRow,
} from './sqlite-rows.ts';

type Statement<R = unknown> = BetterSqlite3.Statement<unknown[], R>;

/** The fixed statements of the adapter, prepared once at `open()`. */
export interface SqliteStatements {
  readonly docMeta: Statement<{
    revision: number;
    created_at: string;
    seq: number;
    key: string | null;
  }>;
  readonly docIdByKey: Statement<{ id: string }>;
  readonly docGet: Statement<DocumentRow>;
  readonly docGetByKey: Statement<DocumentRow>;
  readonly docInsert: Statement;
  readonly docUpdate: Statement;
  readonly docDelete: Statement;
  readonly runGet: Statement<RunRow>;
  readonly runInsert: Statement;
  readonly snapshotInsert: Statement;
  readonly snapshotUpdate: Statement;
  readonly snapshotDelete: Statement;
  readonly patchesAfter: Statement<PatchRow>;
  readonly runState: Statement<{
    seq: number;
    revision: number;
    event_seq: number;
    kind: string;
    workflow_id: string | null;
    batch_id: string | null;
    status: string;
    active: number;
    priority: number;
    base_revision: number;
  }>;
  readonly lastEvent: Statement<{ revision: number; last_seq: number }>;
  readonly runUpdateAt: Statement;
  readonly runDelete: Statement;
  readonly eventInsert: Statement;
  readonly eventsDelete: Statement;
  readonly eventsAfter: Statement<RunEventRow>;
  readonly eventsAfterLimit: Statement<RunEventRow>;
  readonly workInsert: Statement;
  readonly workInsertLeased: Statement;
  readonly workDelete: Statement;
  readonly workLeasedDelete: Statement;
  readonly workDeleteByRun: Statement;
  readonly workLeasedDeleteByRun: Statement;
  readonly workLeasedExpired: Statement<{ 1: number }>;
  readonly workLeasedRequeue: Statement;
  readonly workLeasedRequeueDelete: Statement;
  readonly workLease: Statement<{ lease_owner: string | null; attempts: number }>;
  readonly deliveryLease: Statement<{ lease_owner: string | null }>;
  readonly nextClaimable: Statement<{ work: number | null; deliveries: number | null }>;
  readonly workClaim: Statement<WorkRow>;
  readonly workClaimKinds: Statement<WorkRow>;
  readonly workRenew: Statement;
  readonly workLeasedRenew: Statement;
  readonly workRelease: Statement;
  readonly workLeasedRelease: Statement;
  readonly workLeasedReleaseDelete: Statement;
  readonly workList: Statement<WorkRow>;
  readonly workListByRun: Statement<WorkRow>;
  readonly deliveryUpsert: Statement;
  readonly deliveryGet: Statement<DeliveryRow>;
  readonly deliveryClaim: Statement<DeliveryRow>;
  readonly blobPut: Statement;
  readonly blobGet: Statement<{ bytes: Buffer }>;
  readonly blobDelete: Statement;
  readonly blobKeys: Statement<{ key: string }>;
  readonly sequenceSave: Statement;
  readonly sequenceGet: Statement<{ value: number }>;
  readonly maxSeq: {
    readonly documents: Statement<{ seq: number }>;
    readonly runs: Statement<{ seq: number }>;
    readonly work: Statement<{ seq: number }>;
    readonly deliveries: Statement<{ seq: number }>;
  };
}

/**
 * A run row with its stored snapshot (`CROSS JOIN` keeps `runs` the outer loop, so that a list
 * walks the `runs` index its filters choose).
 */
export const RUN_SELECT =
  'SELECT runs.*, snapshot, base_revision, base_event_seq FROM runs CROSS JOIN run_snapshots ON run_seq = seq';

const WORK_AVAILABLE =
  'available_at <= @now AND (lease_expires_at IS NULL OR lease_expires_at <= @now)';

/** Prepares every fixed statement (dynamic list queries are cached by the adapter). */
export function prepareStatements(db: BetterSqlite3.Database): SqliteStatements {
  const p = <R>(sql: string) => db.prepare(sql) as Statement<R>;
  return {
    docMeta: p(
      'SELECT revision, created_at, seq, key FROM documents WHERE collection = ? AND id = ?',
    ),
    docIdByKey: p('SELECT id FROM documents WHERE collection = ? AND key = ?'),
    docGet: p('SELECT * FROM documents WHERE collection = ? AND id = ?'),
    docGetByKey: p('SELECT * FROM documents WHERE collection = ? AND key = ?'),
    docInsert: p(
      `INSERT INTO documents (collection, id, parent_id, secondary_id, key, name, name_folded, blob_key,
        data, revision, created_at, updated_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`,
    ),
    docUpdate: p(
      `UPDATE documents SET parent_id = ?, secondary_id = ?, key = ?, name = ?, name_folded = ?,
        blob_key = ?, data = ?, revision = ?, updated_at = ? WHERE collection = ? AND id = ?`,
    ),
    docDelete: p('DELETE FROM documents WHERE collection = ? AND id = ?'),
    runGet: p(`${RUN_SELECT} WHERE id = ?`),
    runInsert: p(
      `INSERT INTO runs (id, kind, workflow_id, batch_id, status, active, priority,
        revision, event_seq, created_at, updated_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
        ON CONFLICT (id) DO NOTHING`,
    ),
    snapshotInsert: p(
      `INSERT INTO run_snapshots (run_seq, base_revision, base_event_seq, snapshot)
        VALUES (?, 1, ?, ?)`,
    ),
    snapshotUpdate: p(
      'UPDATE run_snapshots SET base_revision = ?, base_event_seq = ?, snapshot = ? WHERE run_seq = ?',
    ),
    snapshotDelete: p(
      'DELETE FROM run_snapshots WHERE run_seq = (SELECT seq FROM runs WHERE id = ?)',
    ),
    patchesAfter: p(
      'SELECT patch, revision, at FROM run_events WHERE run_id = ? AND last_seq > ? ORDER BY last_seq',
    ),
    // A run as stored, for a writer that does not remember it (see `lastEvent`).
    runState: p(
      `SELECT seq, revision, event_seq, kind, workflow_id, batch_id, status, active, priority,
        base_revision FROM runs CROSS JOIN run_snapshots ON run_seq = seq WHERE id = ?`,
    ),
    // The newest event row of a run: ahead of its `runs` row after commits that stored a patch only.
    lastEvent: p(
      'SELECT revision, last_seq FROM run_events WHERE run_id = ? ORDER BY last_seq DESC LIMIT 1',
    ),
    // Indexed columns are left out of the hot UPDATE: SQLite rewrites an index whenever one of
    // its columns is SET, changed or not, and a step transition rarely changes them; the adapter
    // sets the ones that differ. The WHERE clause checks the row is where the writer left it.
    runUpdateAt: p(
      `UPDATE runs SET priority = ?, revision = ?, event_seq = ?, updated_at = ?
        WHERE id = ? AND revision = ?`,
    ),
    runDelete: p('DELETE FROM runs WHERE id = ?'),
    eventInsert: p(
      `INSERT INTO run_events (run_id, seq, last_seq, events, revision, at, patch)
        VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    eventsDelete: p('DELETE FROM run_events WHERE run_id = ?'),
    eventsAfter: p('SELECT * FROM run_events WHERE run_id = ? AND last_seq > ? ORDER BY last_seq'),
    // A row holds at least one event, so `limit` rows hold at least `limit` events.
    eventsAfterLimit: p(
      'SELECT * FROM run_events WHERE run_id = ? AND last_seq > ? ORDER BY last_seq LIMIT ?',
    ),
    // An id is unique across both tables: each insert looks for it in the other one first.
    workInsert: p(
      `INSERT INTO work (id, run_id, kind, priority, seq, available_at, payload, attempts)
        SELECT ?, ?, ?, ?, ?, ?, ?, 0 WHERE NOT EXISTS (SELECT 1 FROM work_leased WHERE id = ?)
        ON CONFLICT (id) DO NOTHING`,
    ),
    workInsertLeased: p(
      `INSERT INTO work_leased (id, run_id, kind, priority, seq, available_at, payload, attempts,
          lease_owner, lease_expires_at)
        SELECT ?, ?, ?, ?, ?, ?, ?, 1, ?, ? WHERE NOT EXISTS (SELECT 1 FROM work WHERE id = ?)
        ON CONFLICT (id) DO NOTHING`,
    ),
    workDelete: p('DELETE FROM work WHERE id = ?'),
    workLeasedDelete: p('DELETE FROM work_leased WHERE id = ?'),
    workDeleteByRun: p('DELETE FROM work WHERE run_id = ?'),
    workLeasedDeleteByRun: p('DELETE FROM work_leased WHERE run_id = ?'),
    // Leases given at enqueue that expired (their engine died) go back to the queue before a
    // claim, so that one claim query orders everything claimable.
    workLeasedExpired: p('SELECT 1 FROM work_leased WHERE lease_expires_at <= ? LIMIT 1'),
    workLeasedRequeue: p(
      `INSERT INTO work (id, run_id, kind, priority, seq, available_at, payload, attempts,
          lease_owner, lease_expires_at)
        SELECT id, run_id, kind, priority, seq, available_at, payload, attempts, lease_owner,
          lease_expires_at FROM work_leased WHERE lease_expires_at <= ?
        ON CONFLICT (id) DO NOTHING`,
    ),
    workLeasedRequeueDelete: p('DELETE FROM work_leased WHERE lease_expires_at <= ?'),
    // The lease a fence checks: an id is in one of the two tables.
    workLease: p(
      `SELECT lease_owner, attempts FROM work WHERE id = ?
        UNION ALL SELECT lease_owner, attempts FROM work_leased WHERE id = ?`,
    ),
    deliveryLease: p('SELECT lease_owner FROM deliveries WHERE id = ?'),
    // Scans the queue and the pending deliveries: one process per file calls it now and then.
    nextClaimable: p(
      `SELECT (SELECT min(max(available_at, coalesce(lease_expires_at, 0))) FROM
          (SELECT available_at, lease_expires_at FROM work
            WHERE @kinds IS NULL OR kind IN (SELECT value FROM json_each(@kinds))
          UNION ALL SELECT available_at, lease_expires_at FROM work_leased
            WHERE @kinds IS NULL OR kind IN (SELECT value FROM json_each(@kinds)))) AS work,
        (SELECT min(max(next_attempt_at, coalesce(lease_expires_at, 0))) FROM deliveries
          WHERE status = 'pending') AS deliveries`,
    ),
    // One statement claims atomically; the subquery walks work_by_claim_order.
    workClaim: p(
      `UPDATE work SET lease_owner = @owner, lease_expires_at = @expires, attempts = attempts + 1
        WHERE id IN (SELECT id FROM work WHERE ${WORK_AVAILABLE} ORDER BY priority, seq LIMIT @limit)
        RETURNING *`,
    ),
    workClaimKinds: p(
      `UPDATE work SET lease_owner = @owner, lease_expires_at = @expires, attempts = attempts + 1
        WHERE id IN (SELECT id FROM work WHERE ${WORK_AVAILABLE}
          AND kind IN (SELECT value FROM json_each(@kinds)) ORDER BY priority, seq LIMIT @limit)
        RETURNING *`,
    ),
    workRenew: p('UPDATE work SET lease_expires_at = ? WHERE id = ? AND lease_owner = ?'),
    workLeasedRenew: p(
      'UPDATE work_leased SET lease_expires_at = ? WHERE id = ? AND lease_owner = ?',
    ),
    workRelease: p(
      `UPDATE work SET lease_owner = NULL, lease_expires_at = NULL,
        available_at = coalesce(?, available_at) WHERE id = ? AND lease_owner = ?`,
    ),
    // Releasing an item leased at enqueue moves it to the queue, unleased.
    workLeasedRelease: p(
      `INSERT INTO work (id, run_id, kind, priority, seq, available_at, payload, attempts)
        SELECT id, run_id, kind, priority, seq, coalesce(?, available_at), payload, attempts
        FROM work_leased WHERE id = ? AND lease_owner = ?
        ON CONFLICT (id) DO NOTHING`,
    ),
    workLeasedReleaseDelete: p('DELETE FROM work_leased WHERE id = ? AND lease_owner = ?'),
    workList: p('SELECT * FROM work UNION ALL SELECT * FROM work_leased ORDER BY priority, seq'),
    workListByRun: p(
      `SELECT * FROM work WHERE run_id = ? UNION ALL SELECT * FROM work_leased WHERE run_id = ?
        ORDER BY priority, seq`,
    ),
    deliveryUpsert: p(
      `INSERT INTO deliveries (id, endpoint_id, event_id, event_type, event, status, attempts,
        next_attempt_at, lease_owner, lease_expires_at, created_at, updated_at, seq)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET endpoint_id = excluded.endpoint_id,
          event_id = excluded.event_id, event_type = excluded.event_type, event = excluded.event,
          status = excluded.status, attempts = excluded.attempts,
          next_attempt_at = excluded.next_attempt_at, lease_owner = NULL, lease_expires_at = NULL,
          updated_at = excluded.updated_at`,
    ),
    deliveryGet: p('SELECT * FROM deliveries WHERE id = ?'),
    deliveryClaim: p(
      `UPDATE deliveries SET lease_owner = @owner, lease_expires_at = @expires
        WHERE id IN (SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= @now
          AND (lease_expires_at IS NULL OR lease_expires_at <= @now)
          ORDER BY next_attempt_at, seq LIMIT @limit)
        RETURNING *`,
    ),
    blobPut: p(
      'INSERT INTO blobs (key, bytes) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET bytes = excluded.bytes',
    ),
    blobGet: p('SELECT bytes FROM blobs WHERE key = ?'),
    blobDelete: p('DELETE FROM blobs WHERE key = ?'),
    blobKeys: p('SELECT key FROM blobs WHERE substr(key, 1, length(@prefix)) = @prefix'),
    sequenceSave: p(
      'INSERT INTO sequences (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)',
    ),
    sequenceGet: p('SELECT value FROM sequences WHERE name = ?'),
    maxSeq: {
      documents: p('SELECT coalesce(max(seq), 0) AS seq FROM documents'),
      runs: p('SELECT coalesce(max(seq), 0) AS seq FROM runs'),
      work: p(
        'SELECT max(coalesce((SELECT max(seq) FROM work), 0), coalesce((SELECT max(seq) FROM work_leased), 0)) AS seq',
      ),
      deliveries: p('SELECT coalesce(max(seq), 0) AS seq FROM deliveries'),
    },
  };
}
