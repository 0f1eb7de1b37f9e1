import type { RunRecord, StorageAdapter, WorkItemInput } from '@docflow/storage';
import type { RunState } from '../run/run-state.ts';
import { CONTROL_STEP_TYPES } from '../run/transition-context.ts';
import { queueItem } from './work-plan.ts';

/**
 * What `engine.start()` does before it claims anything, after a crash or a stop: the work a
 * previous process left is made claimable again. Lease handling lives here and in the scheduler,
 * nowhere else.
 *
 * On a store shared by processes (`sharedByProcesses`) there is nothing to do: every step an
 * engine executes there holds a lease on a queue row, reserved ones included, so a dead
 * process's steps become claimable when their leases expire, and the leases of live processes
 * are theirs. Giving leases back or queueing PROCESSING steps again would take live processes'
 * work.
 */
export async function recoverUnfinishedWork(
  storage: StorageAdapter,
  now: string,
  options: { readonly seen?: (run: RunRecord) => void } = {},
): Promise<{ readonly released: number; readonly requeued: number }> {
  if (storage.sharedByProcesses === true) return { released: 0, requeued: 0 };
  // One writer per database: claims left by a previous process are stale. Give them back now
  // rather than waiting for their leases to expire.
  const stale = (await storage.listWork()).filter((w) => w.leaseOwner !== undefined);
  const byOwner = new Map<string, string[]>();
  for (const item of stale) {
    const owner = item.leaseOwner as string;
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), item.id]);
  }
  for (const [owner, ids] of byOwner) await storage.releaseWork(ids, { owner });
  // Steps the previous process ran on reserved slots have no queue row: queue them again.
  const requeued = await requeueExecutingSteps(storage, now, options);
  return { released: stale.length, requeued };
}

/** Run statuses in which a step run may be executing. */
const EXECUTING_RUN_STATUSES = ['PROCESSING', 'CANCELLING'] as const;
/** Runs read per page, and queue items written per commit. */
const PAGE = 1000;

/**
 * Queues again every executor step run that is PROCESSING in an unfinished workflow run, as
 * `engine.start()` does before it claims anything. A step that starts on a slot its engine
 * reserved has no queue row (its PROCESSING status in the committed snapshot is its record), so
 * after a crash this is how it runs again, with the same idempotency key. Steps that do have a
 * row (claimed ones, whose stale leases `start()` has just released) are left as they are: an
 * enqueue of a queued id changes nothing. Returns how many items were queued. `seen` is told of
 * every run read, so that the engine can keep what the claims that follow would read again.
 */
export async function requeueExecutingSteps(
  storage: StorageAdapter,
  now: string,
  options: { readonly pageSize?: number; readonly seen?: (run: RunRecord) => void } = {},
): Promise<number> {
  const pageSize = options.pageSize ?? PAGE;
  const items: WorkItemInput[] = [];
  for (const status of EXECUTING_RUN_STATUSES) {
    let pageToken: string | undefined;
    do {
      const page = await storage.listRuns({
        kind: 'workflow_run',
        active: true,
        status,
        order: 'asc',
        pageSize,
        ...(pageToken === undefined ? {} : { pageToken }),
      });
      for (const record of page.items) {
        options.seen?.(record);
        const state = record.snapshot as unknown as RunState;
        for (const sr of state.stepRuns) {
          if (sr.status === 'PROCESSING' && !CONTROL_STEP_TYPES.has(sr.stepType)) {
            items.push(queueItem(state, sr, now));
          }
        }
      }
      pageToken = page.nextPageToken;
    } while (pageToken !== undefined);
  }
  for (let i = 0; i < items.length; i += pageSize) {
    await storage.commit({ enqueue: items.slice(i, i + pageSize) });
  }
  return items.length;
}
