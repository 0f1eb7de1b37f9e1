import type {
  DeliveryColumns,
  DocumentColumns,
  EventsColumns,
  WorkColumns,
} from '../internal/records.ts';
import { deliveryRecord, documentRecord, eventRecords, workRecord } from '../internal/records.ts';
import type { StoredPatch } from '../internal/stored-patches.ts';
import { applyStoredPatches } from '../internal/stored-patches.ts';
import type {
  DeliveryRecord,
  JsonObject,
  RunEventRecord,
  RunRecord,
  StoredDocument,
  WorkItem,
} from '../storage-adapter.ts';

/**
 * Rows as node-postgres returns them with the adapter's type parsers: `json` columns parsed,
 * `bigint` columns as numbers.
 */

/** A row of `documents` as reads return it (a list's rows have `seq` too). */
export interface PgDocumentRow extends DocumentColumns {
  readonly data: JsonObject;
}

/** A row of `runs`. */
export interface PgRunRow {
  readonly id: string;
  readonly kind: string;
  readonly workflow_id: string | null;
  readonly batch_id: string | null;
  readonly status: string;
  readonly active: boolean;
  readonly priority: number;
  /** The snapshot at `base_revision`. */
  readonly snapshot: JsonObject;
  readonly base_revision: number;
  readonly revision: number;
  readonly created_at: string;
  readonly updated_at: string;
  readonly seq: number;
  /** The patches after the snapshot, when the run is past it. */
  readonly patches: readonly StoredPatch[] | null;
}

/** A row of `run_events`: the events of one commit. */
export interface PgEventsRow extends EventsColumns {
  readonly last_seq: number;
  readonly events: readonly (readonly [string, JsonObject])[];
}

/** A row of `work`. */
export interface PgWorkRow extends WorkColumns {
  readonly payload: JsonObject;
}

/** A row of `deliveries`. */
export interface PgDeliveryRow extends DeliveryColumns {
  readonly event: JsonObject;
  readonly attempts: DeliveryRecord['attempts'];
  readonly seq: number;
}

/** A `documents` row in the contract shape. */
export function documentFromPg(r: PgDocumentRow): StoredDocument {
  return documentRecord(r, r.data);
}

/** A `runs` row in the contract shape. */
export function runFromPg(r: PgRunRow): RunRecord {
  if (r.revision !== r.base_revision) {
    applyStoredPatches(r.snapshot, r.patches ?? undefined, {
      id: r.id,
      revision: r.revision,
      baseRevision: r.base_revision,
    });
  }
  const run: { -readonly [K in keyof RunRecord]: RunRecord[K] } = {
    id: r.id,
    kind: r.kind,
    status: r.status,
    active: r.active,
    priority: r.priority,
    snapshot: r.snapshot,
    revision: r.revision,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  if (r.workflow_id !== null) run.workflowId = r.workflow_id;
  if (r.batch_id !== null) run.batchId = r.batch_id;
  return run;
}

/** Appends the events of a `run_events` row that come after `afterSeq` to `out`. */
export function eventsFromPg(r: PgEventsRow, afterSeq: number, out: RunEventRecord[]): void {
  eventRecords(r, r.events, afterSeq, out);
}

/** A `work` row in the contract shape. */
export function workFromPg(r: PgWorkRow): WorkItem {
  return workRecord(r, r.payload);
}

/** A `deliveries` row in the contract shape. */
export function deliveryFromPg(r: PgDeliveryRow): DeliveryRecord {
  return deliveryRecord(r, r.event, r.attempts);
}
