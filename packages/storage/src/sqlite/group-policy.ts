import type { Durability } from '../storage-adapter.ts';

/** What to do with the pending group after a commit joined it. */
export type GroupAction = 'write-now' | 'write-after-microtasks' | 'write-at-end-of-tick' | 'wait';

/** What the decision looks at. */
export interface GroupState {
  readonly threaded: boolean;
  readonly durability: Durability;
  /** Groups sent to the writer and not yet back. */
  readonly inFlight: number;
  /** Commits waiting in the pending group, the one that just joined included. */
  readonly pending: number;
  /** The most commits under way at once lately (in flight and pending). */
  readonly peak: number;
}

/**
 * Groups that may be under way at once: two with a writer thread (it writes one while the
 * caller's thread makes the next), one without.
 */
export function maxGroupsInFlight(threaded: boolean): number {
  return threaded ? 2 : 1;
}

/**
 * When the pending group goes to the writer. Without a writer thread one group is written at a
 * time: with `batched` at the end of the tick in which its commits were made, with `normal` and
 * `full` once the microtasks queued before its first commit have run (no timer, no I/O: the
 * commits that callers make in the same turn, such as steps of several runs finishing together,
 * share a transaction, and a lone commit is not delayed). With a writer
 * thread up to two groups are under way, so that the thread writes one while the caller's thread
 * makes the next: a group goes as soon as it holds half of the commits lately under way at once,
 * or at the end of its tick (`batched`), or at once when nothing is being written (`normal`,
 * `full`: nothing waits for a delay, only for the writer). Without the split, the commits of
 * every run in flight went together and the two threads took turns (bench/README.md).
 */
export function groupAction(s: GroupState): GroupAction {
  if (s.inFlight >= maxGroupsInFlight(s.threaded)) return 'wait';
  if (!s.threaded) {
    return s.durability === 'batched' ? 'write-at-end-of-tick' : 'write-after-microtasks';
  }
  if (s.durability !== 'batched' && s.inFlight === 0) return 'write-now';
  if (s.pending >= s.peak / 2) return 'write-now';
  return s.durability === 'batched' ? 'write-at-end-of-tick' : 'wait';
}
