import type { Engine, WorkflowRun } from '@docflow/engine';

/** Who approves reviews in the property tests (the HUMAN_REVIEW output names them). */
export const PROPERTY_REVIEWER = 'reviewer@example.com';

/**
 * Waits for a run's end, approving it each time it waits for review: with every path parked or
 * ended, which reviews are pending does not depend on completion order, so neither does the end.
 */
export async function finishRun(
  engine: Pick<Engine, 'workflowRuns'>,
  runId: string,
): Promise<WorkflowRun> {
  for (;;) {
    const run = await engine.workflowRuns.waitFor(runId, { timeoutMs: 10_000 });
    if (run.status !== 'NEEDS_REVIEW') return run;
    await engine.workflowRuns.review(runId, { decision: 'approve', reviewer: PROPERTY_REVIEWER });
  }
}
