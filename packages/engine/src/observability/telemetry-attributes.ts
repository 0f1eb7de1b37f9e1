/**
 * The attribute names of docflow's spans (and the field names of its log records, which use the
 * short forms). Stable: dashboards and alerts may be built on them.
 */
export const TELEMETRY_ATTRIBUTES = {
  /** A workflow run's id (`workflow_run_…`). */
  WORKFLOW_RUN_ID: 'docflow.workflow_run.id',
  WORKFLOW_RUN_STATUS: 'docflow.workflow_run.status',
  WORKFLOW_RUN_FAILURE_REASON: 'docflow.workflow_run.failure_reason',
  WORKFLOW_ID: 'docflow.workflow.id',
  WORKFLOW_NAME: 'docflow.workflow.name',
  WORKFLOW_VERSION: 'docflow.workflow.version',
  /** A step run's id (`workflow_step_run_…`). */
  STEP_RUN_ID: 'docflow.step_run.id',
  STEP_NAME: 'docflow.step.name',
  STEP_TYPE: 'docflow.step.type',
  STEP_RUN_STATUS: 'docflow.step_run.status',
  STEP_RUN_ATTEMPTS: 'docflow.step_run.attempts',
  STEP_RUN_FAILURE_REASON: 'docflow.step_run.failure_reason',
  /** A standalone run's id (`parse_run_…`, `extract_run_…`, …). */
  RUN_ID: 'docflow.run.id',
  /** A standalone run's kind: `parse_run`, `extract_run`, `classify_run` or `split_run`. */
  RUN_KIND: 'docflow.run.kind',
  RUN_STATUS: 'docflow.run.status',
  RUN_ATTEMPTS: 'docflow.run.attempts',
  RUN_FAILURE_REASON: 'docflow.run.failure_reason',
  /** On an `attempt.*` span event: the attempt's number (1 for the first). */
  ATTEMPT: 'docflow.attempt',
  /** On an `attempt.failed` span event: the error message and when the next attempt may start. */
  ATTEMPT_ERROR: 'docflow.attempt.error',
  RETRY_AT: 'docflow.attempt.retry_at',
} as const;
