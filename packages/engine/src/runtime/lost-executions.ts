/**
 * Crash-loop protection. An execution is recorded (its step run or standalone run PROCESSING,
 * committed) before the executor starts; a later process that finds it still PROCESSING knows
 * the executor never reached an outcome there: its process died (out of memory, a native crash,
 * a kill), `engine.stop()` interrupted it, or (on a store shared by processes) its process was
 * alive but did not renew its lease in time (a blocked event loop, a paused process, a store that
 * did not answer) and another took the work over. A stop marks the record (`interrupted`) and
 * costs nothing. The process that takes the work over cannot tell a dead holder from a slow one:
 * it counts the execution as `lost`; a slow holder learns that its lease was taken (a renewal or
 * its outcome's commit finds it gone) and says so on the record (`takenOver`), in whichever
 * order the two commits land. Past {@link MAX_LOST_EXECUTIONS} deaths, or as many takeovers from
 * live processes, the work fails instead of being run again, with a message saying which:
 * a document that kills its process cannot kill every restart, and a step that outlives every
 * lease cannot keep every process busy running it again (decision 0057).
 */

/** Executions of one step that may die with their process, or be taken over, before it fails. */
export const MAX_LOST_EXECUTIONS = 3;

/** What a step run or a standalone run keeps of its executions that ended with no outcome. */
export interface ExecutionRecord {
  /** Executions another process found unfinished and ran again (their process died or was slow). */
  lost?: number;
  /** Of those, executions whose process was alive: it reported its lease taken over. */
  takenOver?: number;
  /** The last execution was interrupted by `engine.stop()` (it runs again without counting). */
  interrupted?: boolean;
}

/** Executions of `record` whose process died: lost, and not reported alive since. */
export function diedExecutions(record: ExecutionRecord): number {
  return Math.max(0, (record.lost ?? 0) - (record.takenOver ?? 0));
}

/**
 * Counts an execution found unfinished (the record is mutated) and says whether to run the step
 * again or give up: `undefined` to run again, else the failure message.
 */
export function countLostExecution(record: ExecutionRecord, what: string): string | undefined {
  if (record.interrupted) {
    delete record.interrupted;
    return undefined;
  }
  record.lost = (record.lost ?? 0) + 1;
  const died = diedExecutions(record);
  if (died >= MAX_LOST_EXECUTIONS) {
    return `${what} was executing when its process died ${died} times (out of memory, a crash or a kill while it ran); it is not started again. Look for what the input makes the executor do, or raise its limits.`;
  }
  const takenOver = record.takenOver ?? 0;
  if (takenOver >= MAX_LOST_EXECUTIONS) {
    return `${what} was taken over ${takenOver} times from a process that was still running it but had not renewed its lease within scheduling.leaseMs (an executor that blocks the event loop, a paused process, or a store too slow to answer); it is not started again. Raise scheduling.leaseMs, or make the executor yield to the event loop.`;
  }
  return undefined;
}

/**
 * Records on `record` that its execution ran on in a live process after another process took it
 * over (the lease expired): the other process counted it as lost, and this corrects the count.
 */
export function countTakenOver(record: ExecutionRecord): void {
  record.takenOver = (record.takenOver ?? 0) + 1;
}

/** The failure reason of work given up by {@link countLostExecution}. */
export const LOST_EXECUTIONS_REASON = 'INTERNAL_ERROR';

/**
 * Writes what the executing process knows of an execution that reached no outcome: that
 * `engine.stop()` interrupted it (the next start does not count it as lost), or that another
 * process took it over while this one ran it ({@link countTakenOver}). Best effort: when the
 * write fails, the execution counts as lost once.
 */
export async function noteUnfinished(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch {
    // Counted as one lost execution at the next start.
  }
}
