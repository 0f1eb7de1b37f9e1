import type {
  CollectionName,
  DeliveryRecord,
  DeliveryStatus,
  JsonObject,
  RunEventRecord,
  StoredDocument,
  WorkItem,
} from '../storage-adapter.ts';
import { formatTime } from './time.ts';

/**
 * Row-to-record mapping shared by the SQL adapters: their rows have the same columns (SQLite
 * hands JSON over as text, PostgreSQL parsed), so each passes its JSON values in parsed.
 */

/** The columns of a stored document besides its data. */
export interface DocumentColumns {
  readonly collection: string;
  readonly id: string;
  readonly parent_id: string | null;
  readonly secondary_id: string | null;
  readonly key: string | null;
  readonly name: string | null;
  readonly blob_key: string | null;
  readonly revision: number;
  readonly created_at: string;
  readonly updated_at: string;
}

/** A document in the contract shape (absent columns are absent properties). */
export function documentRecord(r: DocumentColumns, data: JsonObject): StoredDocument {
  const doc: { -readonly [K in keyof StoredDocument]: StoredDocument[K] } = {
    collection: r.collection as CollectionName,
    id: r.id,
    data,
    revision: r.revision,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  if (r.parent_id !== null) doc.parentId = r.parent_id;
  if (r.secondary_id !== null) doc.secondaryId = r.secondary_id;
  if (r.key !== null) doc.key = r.key;
  if (r.name !== null) doc.name = r.name;
  if (r.blob_key !== null) doc.blobKey = r.blob_key;
  return doc;
}

/** The columns of a queue item besides its payload (times in epoch milliseconds). */
export interface WorkColumns {
  readonly id: string;
  readonly run_id: string;
  readonly kind: string;
  readonly priority: number;
  readonly seq: number;
  readonly available_at: number;
  readonly attempts: number;
  readonly lease_owner: string | null;
  readonly lease_expires_at: number | null;
}

/** A queue item in the contract shape. */
export function workRecord(r: WorkColumns, payload: JsonObject): WorkItem {
  const item: { -readonly [K in keyof WorkItem]: WorkItem[K] } = {
    id: r.id,
    runId: r.run_id,
    kind: r.kind,
    priority: r.priority,
    seq: r.seq,
    availableAt: formatTime(r.available_at),
    payload,
    attempts: r.attempts,
  };
  if (r.lease_owner !== null) item.leaseOwner = r.lease_owner;
  if (r.lease_expires_at !== null) item.leaseExpiresAt = formatTime(r.lease_expires_at);
  return item;
}

/** The columns of a delivery besides its event and attempts (times in epoch milliseconds). */
export interface DeliveryColumns {
  readonly id: string;
  readonly endpoint_id: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly status: string;
  readonly next_attempt_at: number;
  readonly lease_owner: string | null;
  readonly lease_expires_at: number | null;
  readonly created_at: string;
  readonly updated_at: string;
}

/** A delivery in the contract shape. */
export function deliveryRecord(
  r: DeliveryColumns,
  event: JsonObject,
  attempts: DeliveryRecord['attempts'],
): DeliveryRecord {
  const d: { -readonly [K in keyof DeliveryRecord]: DeliveryRecord[K] } = {
    id: r.id,
    endpointId: r.endpoint_id,
    eventId: r.event_id,
    eventType: r.event_type,
    event,
    status: r.status as DeliveryStatus,
    attempts,
    nextAttemptAt: formatTime(r.next_attempt_at),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  if (r.lease_owner !== null) d.leaseOwner = r.lease_owner;
  if (r.lease_expires_at !== null) d.leaseExpiresAt = formatTime(r.lease_expires_at);
  return d;
}

/** The columns of an events row (the events of one commit, seq … seq + n - 1). */
export interface EventsColumns {
  readonly run_id: string;
  readonly seq: number;
  readonly revision: number;
  readonly at: string;
}

/** Appends the events of a row (`[[type, data], …]`) that come after `afterSeq` to `out`. */
export function eventRecords(
  r: EventsColumns,
  events: readonly (readonly [string, JsonObject])[],
  afterSeq: number,
  out: RunEventRecord[],
): void {
  for (let i = 0; i < events.length; i++) {
    const seq = r.seq + i;
    if (seq <= afterSeq) continue;
    const [type, data] = events[i] as readonly [string, JsonObject];
    out.push({ runId: r.run_id, seq, type, data, revision: r.revision, at: r.at });
  }
}
