import { revisionsByKey } from '../internal/revisions-by-key.ts';
import { storesPatch } from '../internal/stored-patches.ts';
import { formatTime, parseTime, timeOr } from '../internal/time.ts';
import type { Changes, CollectionName, LeaseFence } from '../storage-adapter.ts';
import type { PostgresQuery } from './postgres-pool.ts';
import { queryConfig } from './postgres-pool.ts';
import type { BatchRun, BatchWork, PostgresStatements } from './postgres-statements.ts';
import { BATCH_RUN_COLUMNS, BATCH_WORK_COLUMNS, batchColumnValues } from './postgres-statements.ts';

/** What a statement of a commit checks, to explain its failure (see `explainFailure`). */
export type StatementRole =
  | { readonly kind: 'run'; readonly id: string; readonly expectedRevision: number }
  | {
      readonly kind: 'document';
      readonly collection: CollectionName;
      readonly id: string;
      readonly key: string | undefined;
      readonly expectedRevision: number | undefined;
    }
  | { readonly kind: 'fence'; readonly fence: LeaseFence }
  | undefined;

/** Work or deliveries a commit made claimable: what it tells other processes. */
export interface CommitWakeUps {
  /** Earliest availability (epoch ms) and most urgent priority of unleased work enqueued. */
  readonly work?: { readonly at: number; readonly priority: number } | undefined;
  /** Earliest next attempt (epoch ms) of pending deliveries written. */
  readonly deliveries?: { readonly at: number } | undefined;
  /** Runs written with `settles`. */
  readonly runs?: readonly string[] | undefined;
}

/** A lease a commit fences on a queue item (see `LeaseFence`). */
export interface WorkFence {
  readonly id: string;
  readonly owner: string;
  readonly attempts: number;
}

/**
 * What a commit of run writes and queue items only (the engine's step commits) gives to a
 * statement shared with other such commits (see `batchQuery`).
 */
export interface BatchPart {
  readonly runIds: readonly string[];
  /** The run writes (see `batch`). */
  readonly runs: readonly BatchRun[];
  /** Fenced queue items the commit removes. */
  readonly finished: readonly WorkFence[];
  /** Fenced queue items the commit keeps (locked until it ends). */
  readonly held: readonly WorkFence[];
  /** Queue items removed without a fence. */
  readonly dequeue: readonly string[];
  /** Queue items inserted. */
  readonly enqueue: readonly BatchWork[];
  /** Every queue item id the commit names (each once). */
  readonly workIds: readonly string[];
}

/**
 * One commit as statements, made when `commit()` is called: its JSON values are serialised
 * then, so that what is stored is what the caller passed, whenever its group is sent.
 */
export interface PlannedCommit {
  readonly queries: readonly PostgresQuery[];
  /** Per query: what it checks (runs, documents, fences), for error messages. */
  readonly roles: readonly StatementRole[];
  /** Per query: the `documentRevisions` key its returned `revision` answers, if any. */
  readonly documentTargets: readonly (string | undefined)[];
  /** Known without asking: a run write's new revision is its expected one plus one. */
  readonly runRevisions: Readonly<Record<string, number>>;
  readonly wakeUps: CommitWakeUps;
  /**
   * The rows the commit reads or writes, as keys (`run:<id>`, `work:<id>`, …): commits that share
   * none may be in transactions under way at once; one that shares a key with a transaction
   * under way waits for it, so that commits touching the same rows apply in call order.
   */
  readonly keys: readonly string[];
  /**
   * Set when the commit writes runs (one write each) and queue items only, each queue item named
   * once (a fenced item may also be removed): then it may go in one statement with other such
   * commits' (the group's runs and queue items all distinct), instead of `queries`, which say
   * the same.
   */
  readonly batchable?: BatchPart | undefined;
}

function nullable<T>(value: T | undefined): T | null {
  return value === undefined ? null : value;
}

/** Plans `changes` (already validated) as statements of `statements`, at `nowMs`. */
export function planCommit(
  changes: Changes,
  nowMs: number,
  statements: PostgresStatements,
): PlannedCommit {
  const q = statements;
  const queries: PostgresQuery[] = [];
  const roles: StatementRole[] = [];
  const documentTargets: (string | undefined)[] = [];
  const runRevisions = revisionsByKey();
  const batchRuns: BatchRun[] = [];
  const batchEnqueue: BatchWork[] = [];
  const push = (
    text: string,
    values: readonly unknown[],
    role?: StatementRole,
    documentTarget?: string,
  ) => {
    queries.push(queryConfig(text, values, true));
    roles.push(role);
    documentTargets.push(documentTarget);
  };

  for (const f of changes.fences ?? []) {
    if ('workId' in f)
      push(q.workFence, [f.workId, f.owner, f.attempts], { kind: 'fence', fence: f });
    else push(q.deliveryFence, [f.deliveryId, f.owner], { kind: 'fence', fence: f });
  }

  const deletes = changes.deleteDocuments ?? [];
  if (deletes.length > 0) {
    push(q.docDelete, [deletes.map((d) => d.collection), deletes.map((d) => d.id)]);
  }

  changes.documents?.forEach((d, i) => {
    const at = formatTime(timeOr(d.at, nowMs, `changes.documents[${i}].at`));
    const values: unknown[] = [
      d.collection,
      d.id,
      nullable(d.parentId),
      nullable(d.secondaryId),
      nullable(d.key),
      nullable(d.name),
      d.name === undefined ? null : d.name.toLowerCase(),
      nullable(d.blobKey),
      JSON.stringify(d.data),
      at,
    ];
    const role: StatementRole = {
      kind: 'document',
      collection: d.collection,
      id: d.id,
      key: d.key,
      expectedRevision: d.expectedRevision,
    };
    const target = `${d.collection}/${d.id}`;
    if (d.expectedRevision === undefined) push(q.docUpsert, values, role, target);
    else if (d.expectedRevision === 0) push(q.docInsert, values, role, target);
    else push(q.docUpdate, [...values, d.expectedRevision], role, target);
  });

  if (changes.deleteRuns !== undefined && changes.deleteRuns.length > 0) {
    push(q.runsDelete, [changes.deleteRuns]);
  }

  const settled: string[] = [];
  changes.runs?.forEach((r, i) => {
    if (r.settles === true) settled.push(r.id);
    const at = formatTime(timeOr(r.at, nowMs, `changes.runs[${i}].at`));
    const count = r.events?.length ?? 0;
    const events =
      count === 0 ? null : JSON.stringify((r.events ?? []).map((e) => [e.type, e.data]));
    // The patch instead of the snapshot, most of the time (see `storesPatch`).
    const patched = storesPatch(r);
    const snapshot = patched ? null : JSON.stringify(r.snapshot);
    const patch = patched ? JSON.stringify(r.patch) : null;
    const columns = [
      r.id,
      r.kind,
      nullable(r.workflowId),
      nullable(r.batchId),
      r.status,
      r.active,
      r.priority,
      snapshot,
    ] as const;
    const role: StatementRole = { kind: 'run', id: r.id, expectedRevision: r.expectedRevision };
    batchRuns.push([...columns, r.expectedRevision, count, at, events, patch]);
    if (r.expectedRevision === 0) {
      const values = [...columns, count, at];
      if (events === null) push(q.runInsert, values, role);
      else push(q.runInsertWithEvents, [...values, events], role);
    } else {
      const values = [...columns, r.expectedRevision, count, at];
      if (events === null) push(q.runUpdate, values, role);
      else push(q.runUpdateWithEvents, [...values, events, patch], role);
    }
    runRevisions[r.id] = r.expectedRevision + 1;
  });

  if (changes.dequeue !== undefined && changes.dequeue.length > 0) {
    push(q.workDelete, [changes.dequeue]);
  }

  let work: { at: number; priority: number } | undefined;
  changes.enqueue?.forEach((w, i) => {
    const availableMs = timeOr(w.availableAt, nowMs, `changes.enqueue[${i}].availableAt`);
    const payload = JSON.stringify(w.payload);
    const values = [w.id, w.runId, w.kind, w.priority, availableMs, payload] as const;
    const [attempts, owner, expires] =
      w.lease === undefined ? [0, null, null] : [1, w.lease.owner, nowMs + w.lease.leaseMs];
    batchEnqueue.push([...values, attempts, owner, expires]);
    if (w.lease === undefined) {
      push(q.workInsert, values);
      work = {
        at: Math.min(work?.at ?? availableMs, availableMs),
        priority: Math.min(work?.priority ?? w.priority, w.priority),
      };
    } else push(q.workInsertLeased, [...values, w.lease.owner, nowMs + w.lease.leaseMs]);
  });

  let deliveries: { at: number } | undefined;
  changes.deliveries?.forEach((d, i) => {
    const at = formatTime(timeOr(d.at, nowMs, `changes.deliveries[${i}].at`));
    const next = parseTime(d.nextAttemptAt, `changes.deliveries[${i}].nextAttemptAt`);
    push(q.deliveryUpsert, [
      d.id,
      d.endpointId,
      d.eventId,
      d.eventType,
      JSON.stringify(d.event),
      d.status,
      JSON.stringify(d.attempts),
      next,
      at,
    ]);
    if (d.status === 'pending') deliveries = { at: Math.min(deliveries?.at ?? next, next) };
  });

  const keys: string[] = [];
  for (const f of changes.fences ?? []) {
    keys.push('workId' in f ? `work:${f.workId}` : `delivery:${f.deliveryId}`);
  }
  for (const d of changes.deleteDocuments ?? []) keys.push(`document:${d.collection}/${d.id}`);
  for (const d of changes.documents ?? []) {
    keys.push(`document:${d.collection}/${d.id}`);
    if (d.key !== undefined) keys.push(`key:${d.collection}/${d.key}`);
  }
  for (const id of changes.deleteRuns ?? []) keys.push(`run:${id}`);
  for (const r of changes.runs ?? []) keys.push(`run:${r.id}`);
  for (const id of changes.dequeue ?? []) keys.push(`work:${id}`);
  // Deleting a run deletes its queue items: enqueuing one orders behind it.
  for (const w of changes.enqueue ?? []) keys.push(`work:${w.id}`, `run:${w.runId}`);
  for (const d of changes.deliveries ?? []) keys.push(`delivery:${d.id}`);
  return {
    queries,
    roles,
    documentTargets,
    runRevisions,
    wakeUps: { work, deliveries, runs: settled.length > 0 ? settled : undefined },
    keys,
    batchable: queries.length === 0 ? undefined : batchPart(changes, batchRuns, batchEnqueue),
  };
}

/**
 * The commit's part of a batch statement, or undefined when it has something a batch does not
 * carry (documents, run deletions, deliveries, delivery fences), writes a run twice, or names a
 * queue item twice (other than a fenced item it removes): a batch's parts apply at once, not in
 * the order of the commit's parts.
 */
function batchPart(
  changes: Changes,
  runs: readonly BatchRun[],
  enqueue: readonly BatchWork[],
): BatchPart | undefined {
  if (
    (changes.documents?.length ?? 0) > 0 ||
    (changes.deleteDocuments?.length ?? 0) > 0 ||
    (changes.deleteRuns?.length ?? 0) > 0 ||
    (changes.deliveries?.length ?? 0) > 0
  ) {
    return undefined;
  }
  const runIds = (changes.runs ?? []).map((r) => r.id);
  const dequeue = changes.dequeue ?? [];
  if (!distinct(runIds) || !distinct(dequeue)) return undefined;
  const finished: WorkFence[] = [];
  const held: WorkFence[] = [];
  const workIds: string[] = [];
  for (const f of changes.fences ?? []) {
    if (!('workId' in f)) return undefined;
    const fence = { id: f.workId, owner: f.owner, attempts: f.attempts };
    if (dequeue.includes(f.workId)) finished.push(fence);
    else held.push(fence);
    workIds.push(f.workId);
  }
  // A commit fences few queue items (the engine's, one at most): looking through them is cheap.
  const unfenced = dequeue.filter((id) => !finished.some((f) => f.id === id));
  workIds.push(...unfenced);
  for (const w of changes.enqueue ?? []) workIds.push(w.id);
  if (!distinct(workIds)) return undefined;
  return { runIds, runs, finished, held, dequeue: unfenced, enqueue, workIds };
}

/** Whether no id is named twice (a list of one, most of a step commit's, needs no set). */
function distinct(ids: readonly string[]): boolean {
  return ids.length < 2 || new Set(ids).size === ids.length;
}

/** The statement carrying the parts of a run of batchable commits (runs and queue ids distinct). */
export function batchQuery(
  parts: readonly BatchPart[],
  statements: PostgresStatements,
): PostgresQuery {
  const all = <T>(pick: (p: BatchPart) => readonly T[]) => parts.flatMap(pick);
  const finished = all((p) => p.finished);
  const held = all((p) => p.held);
  const runs = all((p) => p.runs);
  const enqueue = all((p) => p.enqueue);
  return queryConfig(
    statements.batch,
    [
      runs.length,
      finished.map((f) => f.id),
      finished.map((f) => f.owner),
      finished.map((f) => f.attempts),
      held.map((f) => f.id),
      held.map((f) => f.owner),
      held.map((f) => f.attempts),
      all((p) => p.dequeue),
      finished.length + held.length,
      // One parameter per column (see `BATCH_RUN_COLUMNS`).
      ...BATCH_RUN_COLUMNS.map((c, i) =>
        batchColumnValues(
          c,
          runs.map((r) => r[i]),
        ),
      ),
      ...BATCH_WORK_COLUMNS.map((c, i) =>
        batchColumnValues(
          c,
          enqueue.map((w) => w[i]),
        ),
      ),
    ],
    true,
  );
}

/** Merges the wake-ups of the commits of one transaction. */
export function mergeWakeUps(commits: readonly PlannedCommit[]): CommitWakeUps {
  let work: { at: number; priority: number } | undefined;
  let deliveries: { at: number } | undefined;
  const runs: string[] = [];
  for (const { wakeUps } of commits) {
    if (wakeUps.runs !== undefined) runs.push(...wakeUps.runs);
    if (wakeUps.work !== undefined) {
      work = {
        at: Math.min(work?.at ?? wakeUps.work.at, wakeUps.work.at),
        priority: Math.min(work?.priority ?? wakeUps.work.priority, wakeUps.work.priority),
      };
    }
    if (wakeUps.deliveries !== undefined) {
      deliveries = { at: Math.min(deliveries?.at ?? wakeUps.deliveries.at, wakeUps.deliveries.at) };
    }
  }
  return { work, deliveries, runs: runs.length > 0 ? runs : undefined };
}
