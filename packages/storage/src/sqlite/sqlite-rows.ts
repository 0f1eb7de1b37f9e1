import { deliveryRecord, documentRecord, eventRecords, workRecord } from '../internal/records.ts';
import { applyStoredPatches } from '../internal/stored-patches.ts';
import type {
  DeliveryRecord,
  JsonObject,
  RunEventRecord,
  RunRecord,
  StoredDocument,
  WorkItem,
} from '../storage-adapter.ts';

/** A row of `documents`. */
export interface DocumentRow {
  collection: string;
  id: string;
  parent_id: string | null;
  secondary_id: string | null;
  key: string | null;
  name: string | null;
  blob_key: string | null;
  data: string;
  revision: number;
  created_at: string;
  updated_at: string;
  seq: number;
}

/** A row of `runs`. */
export interface RunRow {
  id: string;
  kind: string;
  workflow_id: string | null;
  batch_id: string | null;
  status: string;
  active: number;
  priority: number;
  revision: number;
  created_at: string;
  updated_at: string;
  seq: number;
  /** From `run_snapshots`: the snapshot at `base_revision`, written with event `base_event_seq`. */
  snapshot: string;
  base_revision: number;
  base_event_seq: number;
}

/** The patch of a `run_events` row after a run's stored snapshot, with its revision and time. */
export interface PatchRow {
  patch: string | null;
  revision: number;
  at: string;
}

/** A row of `run_events`. */
export interface RunEventRow {
  run_id: string;
  /** The first event's seq; the row holds seq … last_seq. */
  seq: number;
  last_seq: number;
  /** `[[type, data], …]`: the events of one commit. */
  events: string;
  revision: number;
  at: string;
  /** The commit's snapshot patch when it did not rewrite the snapshot, else null. */
  patch: string | null;
}

/** A row of `work`. */
export interface WorkRow {
  id: string;
  run_id: string;
  kind: string;
  priority: number;
  seq: number;
  available_at: number;
  payload: string;
  attempts: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
}

/** A row of `deliveries`. */
export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  event: string;
  status: string;
  attempts: string;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  created_at: string;
  updated_at: string;
  seq: number;
}

/** Maps a `documents` row to the contract shape (absent columns are absent properties). */
export function documentFromRow(r: DocumentRow): StoredDocument {
  return documentRecord(r, JSON.parse(r.data) as JsonObject);
}

/**
 * Maps a `runs` row to the contract shape. `patches`: the `patch` column of the run's event rows
 * after `base_event_seq`, one per revision after `base_revision`, read in the same transaction.
 */
export function runFromRow(r: RunRow, patches?: readonly PatchRow[]): RunRecord {
  const snapshot = JSON.parse(r.snapshot) as JsonObject;
  let revision = r.revision;
  let updatedAt = r.updated_at;
  if (r.revision !== r.base_revision) {
    // The row holds the revision of its last write; commits that stored a patch only since then
    // are ahead of it, each one revision (see `SqliteWriter`).
    const last = applyStoredPatches(snapshot, patches, {
      id: r.id,
      revision: r.revision,
      baseRevision: r.base_revision,
    });
    revision = last.revision;
    if (last.revision > r.revision && last.at !== undefined) updatedAt = last.at;
  }
  const run: { -readonly [K in keyof RunRecord]: RunRecord[K] } = {
    id: r.id,
    kind: r.kind,
    status: r.status,
    active: r.active === 1,
    priority: r.priority,
    snapshot,
    revision,
    createdAt: r.created_at,
    updatedAt,
  };
  if (r.workflow_id !== null) run.workflowId = r.workflow_id;
  if (r.batch_id !== null) run.batchId = r.batch_id;
  return run;
}

/** Appends the events of a `run_events` row that come after `afterSeq` to `out`. */
export function eventsFromRow(r: RunEventRow, afterSeq: number, out: RunEventRecord[]): void {
  eventRecords(r, JSON.parse(r.events) as [string, JsonObject][], afterSeq, out);
}

/** Maps a `work` row to the contract shape. */
export function workFromRow(r: WorkRow): WorkItem {
  return workRecord(r, JSON.parse(r.payload) as JsonObject);
}

/** Maps a `deliveries` row to the contract shape. */
export function deliveryFromRow(r: DeliveryRow): DeliveryRecord {
  return deliveryRecord(
    r,
    JSON.parse(r.event) as JsonObject,
    JSON.parse(r.attempts) as DeliveryRecord['attempts'],
  );
}
