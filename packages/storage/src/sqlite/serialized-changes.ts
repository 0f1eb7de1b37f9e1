import type { Changes } from '../storage-adapter.ts';

/**
 * A commit's JSON columns, serialised when `commit()` is called. Group commit applies changes a
 * tick later: serialising at once (and copying each entry's own fields) fixes what gets stored
 * to what the caller passed, without a deep clone of snapshots that are then serialised anyway.
 */
export interface SerializedChanges {
  readonly changes: Changes;
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

/**
 * Serialises the JSON columns of `changes`. With `copy`, every entry is also shallow-copied, so
 * that a caller changing its objects after `commit()` returns cannot change the stored row.
 */
export function serializeChanges(changes: Changes, copy: boolean): SerializedChanges {
  const runs = changes.runs ?? [];
  return {
    changes: copy ? copyChanges(changes) : changes,
    documentData: (changes.documents ?? []).map((d) => JSON.stringify(d.data)),
    runSnapshots: runs.map((r) => JSON.stringify(r.snapshot)),
    runEvents: runs.map((r) => packEvents(r.events)),
    runEventCounts: runs.map((r) => r.events?.length ?? 0),
    payloads: (changes.enqueue ?? []).map((w) => JSON.stringify(w.payload)),
    deliveryEvents: (changes.deliveries ?? []).map((d) => JSON.stringify(d.event)),
    deliveryAttempts: (changes.deliveries ?? []).map((d) => JSON.stringify(d.attempts)),
  };
}

function copyChanges(c: Changes): Changes {
  return {
    ...(c.documents ? { documents: c.documents.map((d) => ({ ...d })) } : {}),
    ...(c.deleteDocuments ? { deleteDocuments: c.deleteDocuments.map((d) => ({ ...d })) } : {}),
    // Events and snapshots are read only through their serialised forms.
    ...(c.runs ? { runs: c.runs.map((r) => ({ ...r })) } : {}),
    ...(c.deleteRuns ? { deleteRuns: [...c.deleteRuns] } : {}),
    ...(c.enqueue
      ? {
          enqueue: c.enqueue.map((w) => ({ ...w, ...(w.lease ? { lease: { ...w.lease } } : {}) })),
        }
      : {}),
    ...(c.dequeue ? { dequeue: [...c.dequeue] } : {}),
    ...(c.deliveries ? { deliveries: c.deliveries.map((d) => ({ ...d })) } : {}),
  };
}
