/**
 * Crash-loop protection. An execution is recorded (its step run or standalone run PROCESSING,
 * committed) before the executor starts; a later process that finds it still PROCESSING knows
 * the executor never reached an outcome: its process died (out of memory, a native crash, a kill)
 * or `engine.stop()` interrupted it. A stop marks the record (`interrupted`) and costs nothing;
 * a death counts (`lost`), and past {@link MAX_LOST_EXECUTIONS} the work fails instead of being
 * run again, so that a document that kills its process cannot kill every restart.
 */

/** Executions of one step that may die with their process before it fails. */
export const MAX_LOST_EXECUTIONS = 3;

/** What a step run or a standalone run keeps of its executions that ended with no outcome. */
export interface ExecutionRecord {
  /** Executions that died with their process. */
  lost?: number;
  /** The last execution was interrupted by `engine.stop()` (it runs again without counting). */
  interrupted?: boolean;
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
  if (record.lost < MAX_LOST_EXECUTIONS) return undefined;
  return `${what} was executing when its process died ${record.lost} times (out of memory, a crash or a kill while it ran); it is not started again. Look for what the input makes the executor do, or raise its limits.`;
}

/** The failure reason of work given up by {@link countLostExecution}. */
export const LOST_EXECUTIONS_REASON = 'INTERNAL_ERROR';

/**
 * Records that `engine.stop()` interrupted an execution (so that the next start does not count
 * it as lost). Best effort: when the write fails, the execution counts as lost once.
 */
export async function markInterrupted(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch {
    // Counted as one lost execution at the next start.
  }
}
