import { storesPatch } from '../internal/stored-patches.ts';
import type {
  Changes,
  DeliveryWrite,
  DocumentWrite,
  RunWrite,
  WorkItemInput,
} from '../storage-adapter.ts';

type WireRun = Omit<RunWrite, 'snapshot' | 'events' | 'patch'>;
type WireItem = Omit<WorkItemInput, 'payload'>;

/** A commit's entries without their JSON columns, which travel serialised beside them. */
export interface WireChanges {
  readonly fences?: Changes['fences'];
  readonly documents?: readonly Omit<DocumentWrite, 'data'>[];
  readonly deleteDocuments?: Changes['deleteDocuments'];
  readonly runs?: readonly WireRun[];
  readonly deleteRuns?: readonly string[];
  readonly enqueue?: readonly WireItem[];
  readonly dequeue?: readonly string[];
  readonly deliveries?: readonly Omit<DeliveryWrite, 'event' | 'attempts'>[];
}

/**
 * A commit as the writer applies it: its entries copied without their JSON columns, and those
 * columns serialised, both when `commit()` is called. What gets stored is then fixed to what the
 * caller passed (group commit applies it a tick later), and the whole is cheap to hand to a
 * writer thread: small objects and strings, no deep clone of snapshots that are serialised
 * anyway.
 */
export interface SerializedChanges {
  readonly changes: WireChanges;
  readonly documentData: readonly string[];
  /** Per run write: its whole snapshot, or undefined where its patch is stored instead. */
  readonly runSnapshots: readonly (string | undefined)[];
  /** Per run write: its patch where that is stored instead of the snapshot. */
  readonly runPatches: readonly (string | undefined)[];
  /** Per run write: its events as one row, `[[type, data], …]`, or undefined for none. */
  readonly runEvents: readonly (string | undefined)[];
  readonly runEventCounts: readonly number[];
  readonly payloads: readonly string[];
  readonly deliveryEvents: readonly string[];
  readonly deliveryAttempts: readonly string[];
}

function packEvents(
  events: readonly { type: string; data: unknown }[] | undefined,
): string | undefined {
  if (events === undefined || events.length === 0) return undefined;
  return JSON.stringify(events.map((e) => [e.type, e.data]));
}

/** Serialises `changes` for the writer (see {@link SerializedChanges}). */
export function serializeChanges(changes: Changes): SerializedChanges {
  const runs = changes.runs ?? [];
  const deliveries = changes.deliveries ?? [];
  const patched = runs.map(storesPatch);
  return {
    changes: wire(changes),
    documentData: (changes.documents ?? []).map((d) => JSON.stringify(d.data)),
    runSnapshots: runs.map((r, i) => (patched[i] ? undefined : JSON.stringify(r.snapshot))),
    runPatches: runs.map((r, i) => (patched[i] ? JSON.stringify(r.patch) : undefined)),
    runEvents: runs.map((r) => packEvents(r.events)),
    runEventCounts: runs.map((r) => r.events?.length ?? 0),
    payloads: (changes.enqueue ?? []).map((w) => JSON.stringify(w.payload)),
    deliveryEvents: deliveries.map((d) => JSON.stringify(d.event)),
    deliveryAttempts: deliveries.map((d) => JSON.stringify(d.attempts)),
  };
}

/** A run write's fields the writer reads, copied one by one (a rest copy cost ten times more). */
function wireRun(r: RunWrite): WireRun {
  return {
    id: r.id,
    kind: r.kind,
    workflowId: r.workflowId,
    batchId: r.batchId,
    status: r.status,
    active: r.active,
    priority: r.priority,
    expectedRevision: r.expectedRevision,
    at: r.at,
  };
}

function wireItem(w: WorkItemInput): WireItem {
  return {
    id: w.id,
    runId: w.runId,
    kind: w.kind,
    priority: w.priority,
    availableAt: w.availableAt,
    lease: w.lease === undefined ? undefined : { owner: w.lease.owner, leaseMs: w.lease.leaseMs },
  };
}

function wire(c: Changes): WireChanges {
  const out: { -readonly [K in keyof WireChanges]: WireChanges[K] } = {};
  if (c.fences) out.fences = c.fences.map((f) => ({ ...f }));
  if (c.documents) out.documents = c.documents.map(({ data: _, ...d }) => d);
  if (c.deleteDocuments) out.deleteDocuments = c.deleteDocuments.map((d) => ({ ...d }));
  if (c.runs) out.runs = c.runs.map(wireRun);
  if (c.deleteRuns) out.deleteRuns = [...c.deleteRuns];
  if (c.enqueue) out.enqueue = c.enqueue.map(wireItem);
  if (c.dequeue) out.dequeue = [...c.dequeue];
  if (c.deliveries) out.deliveries = c.deliveries.map(({ event: _e, attempts: _a, ...d }) => d);
  return out;
}
