import { StorageError } from '../errors.ts';
import { applySnapshotPatch, type SnapshotPatchOp } from '../snapshot-patch.ts';
import type { JsonObject, RunWrite } from '../storage-adapter.ts';

/**
 * How the SQL adapters store a run's snapshot: whole now and then, and in between only the
 * patch each write carries (`RunWrite.patch`), in the row of the write's events. A 5-step run's
 * snapshot is 2-4 KB and a step's patch a tenth of that: writing (and sending) the patch is most
 * of a step commit's saving. A run reads as its stored snapshot with the patches after it.
 */

/**
 * The snapshot is stored whole at least every this many revisions, so that reading a run applies
 * at most this many patches less one.
 */
export const SNAPSHOT_EVERY = 8;

/**
 * Whether a run write stores its patch instead of its snapshot: it has one, the run stays active
 * (a run at rest is read as one row), the commit has events (the patch goes in their row), and
 * the revision it makes is not one where the snapshot is stored whole.
 */
export function storesPatch(r: RunWrite): boolean {
  return (
    r.patch !== undefined &&
    r.active &&
    r.events !== undefined &&
    r.events.length > 0 &&
    r.expectedRevision % SNAPSHOT_EVERY !== 0
  );
}

/** A stored patch: the one of the write that made `revision` at `at`. */
export interface StoredPatch {
  /** Parsed already (PostgreSQL) or as JSON text (SQLite); null where none was stored. */
  readonly patch: readonly SnapshotPatchOp[] | string | null;
  readonly revision: number;
  readonly at: string;
}

/**
 * Applies to `snapshot` (stored at `baseRevision`, parsed, changed in place) the patches stored
 * after it, one per revision, and returns the revision and time of the last one. Throws
 * `DATABASE_ERROR` naming the run when they do not fit: the store was changed outside the adapter.
 */
export function applyStoredPatches(
  snapshot: JsonObject,
  patches: readonly StoredPatch[] | undefined,
  run: { readonly id: string; readonly revision: number; readonly baseRevision: number },
): { readonly revision: number; readonly at: string | undefined } {
  const least = run.revision - run.baseRevision;
  const where = `run ${run.id} (revision ${run.revision}, snapshot at ${run.baseRevision})`;
  const last = patches?.[patches.length - 1];
  if (patches === undefined || last === undefined || patches.length < least) {
    throw new StorageError(
      'DATABASE_ERROR',
      `${where}: ${least} patches expected, ${patches?.length ?? 0} stored`,
    );
  }
  if (last.revision !== run.baseRevision + patches.length) {
    throw new StorageError(
      'DATABASE_ERROR',
      `${where}: ${patches.length} patches stored, the last at revision ${last.revision}`,
    );
  }
  for (const p of patches) {
    if (p.patch === null) {
      throw new StorageError('DATABASE_ERROR', `${where}: an event row after it has no patch`);
    }
    try {
      const ops =
        typeof p.patch === 'string' ? (JSON.parse(p.patch) as SnapshotPatchOp[]) : p.patch;
      applySnapshotPatch(snapshot, ops);
    } catch (error) {
      throw new StorageError('DATABASE_ERROR', `${where}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  return { revision: last.revision, at: last.at };
}
