import type {
  Changes,
  DeliveryWrite,
  DocumentWrite,
  RunWrite,
  WorkItemInput,
} from '../storage-adapter.ts';

/** A commit's entries without their JSON columns, which travel serialised beside them. */
export interface WireChanges {
  readonly documents?: readonly Omit<DocumentWrite, 'data'>[];
  readonly deleteDocuments?: Changes['deleteDocuments'];
  readonly runs?: readonly Omit<RunWrite, 'snapshot' | 'events'>[];
  readonly deleteRuns?: readonly string[];
  readonly enqueue?: readonly Omit<WorkItemInput, 'payload'>[];
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
  readonly runSnapshots: readonly string[];
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
  let packed = '[';
  for (let j = 0; j < events.length; j++) {
    const e = events[j] as { type: string; data: unknown };
    packed += `${j === 0 ? '' : ','}[${JSON.stringify(e.type)},${JSON.stringify(e.data)}]`;
  }
  return `${packed}]`;
}

/** Serialises `changes` for the writer (see {@link SerializedChanges}). */
export function serializeChanges(changes: Changes): SerializedChanges {
  const runs = changes.runs ?? [];
  const deliveries = changes.deliveries ?? [];
  return {
    changes: wire(changes),
    documentData: (changes.documents ?? []).map((d) => JSON.stringify(d.data)),
    runSnapshots: runs.map((r) => JSON.stringify(r.snapshot)),
    runEvents: runs.map((r) => packEvents(r.events)),
    runEventCounts: runs.map((r) => r.events?.length ?? 0),
    payloads: (changes.enqueue ?? []).map((w) => JSON.stringify(w.payload)),
    deliveryEvents: deliveries.map((d) => JSON.stringify(d.event)),
    deliveryAttempts: deliveries.map((d) => JSON.stringify(d.attempts)),
  };
}

function wire(c: Changes): WireChanges {
  return {
    ...(c.documents ? { documents: c.documents.map(({ data: _, ...d }) => d) } : {}),
    ...(c.deleteDocuments ? { deleteDocuments: c.deleteDocuments.map((d) => ({ ...d })) } : {}),
    ...(c.runs ? { runs: c.runs.map(({ snapshot: _s, events: _e, ...r }) => r) } : {}),
    ...(c.deleteRuns ? { deleteRuns: [...c.deleteRuns] } : {}),
    ...(c.enqueue
      ? {
          enqueue: c.enqueue.map(({ payload: _, ...w }) =>
            w.lease ? { ...w, lease: { ...w.lease } } : w,
          ),
        }
      : {}),
    ...(c.dequeue ? { dequeue: [...c.dequeue] } : {}),
    ...(c.deliveries
      ? { deliveries: c.deliveries.map(({ event: _e, attempts: _a, ...d }) => d) }
      : {}),
  };
}
