import { createHash } from 'node:crypto';
import type { JsonObject, JsonValue } from '@docflow/storage';
import type { FileSummary, StepType } from '../step-executor.ts';
import type { RunStatus, StepRunStatus } from './lifecycle.ts';
import type {
  RunState,
  StepRunState,
  WorkflowSummary,
  WorkflowVersionSummary,
} from './run-state.ts';
import { runUsage } from './run-transitions.ts';

/** SPEC.md StepRun, as `workflowRuns.get` returns it. */
export interface StepRun {
  readonly object: 'workflow_step_run';
  readonly id: string;
  readonly workflowRunId: string;
  readonly stepType: StepType;
  readonly status: StepRunStatus;
  readonly files: readonly FileSummary[];
  readonly step: {
    readonly object: 'workflow_step';
    readonly id: string;
    readonly name: string;
    readonly type: StepType;
  };
  /**
   * What the step produced: a PARSE step's `parseRun`, an EXTRACT step's `extractRun`, a CLASSIFY
   * step's `classifyRun`, a SPLIT step's `splitRun`; `{ output }` for other steps; null while none.
   */
  readonly result: JsonObject | null;
  readonly attempt: number;
  readonly startTime: string | null;
  readonly endTime: string | null;
  readonly failureReason: string | null;
  readonly failureMessage: string | null;
  readonly usage: { readonly credits: number; readonly pages?: number } | null;
}

/** SPEC.md workflow run. */
export interface WorkflowRun {
  readonly object: 'workflow_run';
  readonly id: string;
  readonly workflow: WorkflowSummary;
  readonly workflowVersion: WorkflowVersionSummary;
  /** docflow has no dashboard; always null. */
  readonly dashboardUrl: string | null;
  readonly status: RunStatus;
  readonly priority: number;
  readonly metadata: JsonObject;
  readonly batchId: string | null;
  readonly files: readonly FileSummary[];
  readonly failureReason: string | null;
  readonly failureMessage: string | null;
  readonly initialRunAt: string | null;
  readonly reviewedByUser: string | null;
  readonly reviewed: boolean;
  readonly rejectionNote: string | null;
  readonly reviewedAt: string | null;
  readonly startTime: string | null;
  readonly endTime: string | null;
  readonly stepRuns: readonly StepRun[];
  readonly usage: { readonly credits: number; readonly totalCredits: number } | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

const stepIds = new Map<string, string>();

/** A stable id for a definition step (definitions name steps; SPEC.md gives them ids). */
function stepId(definitionId: string, name: string): string {
  const key = `${definitionId}\0${name}`;
  let id = stepIds.get(key);
  if (!id) {
    id = `workflow_step_${createHash('sha256').update(key).digest('hex').slice(0, 20)}`;
    if (stepIds.size > 10_000) stepIds.clear();
    stepIds.set(key, id);
  }
  return id;
}

const PROCESSOR_RUN_KINDS: Partial<
  Record<StepType, { key: string; object: string; prefix: string }>
> = {
  PARSE: { key: 'parseRun', object: 'parse_run', prefix: 'pr_' },
  EXTRACT: { key: 'extractRun', object: 'extract_run', prefix: 'exr_' },
  CLASSIFY: { key: 'classifyRun', object: 'classify_run', prefix: 'clr_' },
  SPLIT: { key: 'splitRun', object: 'split_run', prefix: 'splr_' },
};

function processorStatus(status: StepRunStatus): string {
  switch (status) {
    case 'PROCESSED':
    case 'FAILED':
    case 'CANCELLED':
    case 'PROCESSING':
    case 'PENDING':
      return status;
    default:
      return 'PROCESSING';
  }
}

function resultOf(
  sr: StepRunState,
  output: JsonValue | undefined,
  files: readonly FileSummary[],
): JsonObject | null {
  const kind = PROCESSOR_RUN_KINDS[sr.stepType];
  const done = sr.status === 'PROCESSED' || sr.status === 'FAILED';
  if (!kind) return output === undefined || !done ? null : { output };
  const suffix = sr.id.slice('workflow_step_run_'.length);
  const run: Record<string, JsonValue> = {
    object: kind.object,
    id: `${kind.prefix}${suffix}`,
    status: processorStatus(sr.status),
    output: sr.status === 'PROCESSED' ? (output ?? null) : null,
    failureReason: sr.failureReason ?? null,
    failureMessage: sr.failureMessage ?? null,
    usage: (sr.usage as unknown as JsonValue) ?? null,
  };
  if (sr.stepType === 'PARSE') {
    run.file = (files[0] as unknown as JsonValue) ?? null;
  } else {
    run.reviewed = sr.review !== undefined;
    run.edited = sr.review !== undefined && Object.keys(sr.review.edits).length > 0;
    run.initialOutput = sr.review ? sr.review.initialOutput : null;
    run.reviewedOutput = sr.review ? (output ?? null) : null;
    run.edits = sr.review ? sr.review.edits : null;
    if (files.length > 1) run.files = files as unknown as JsonValue;
    else run.file = (files[0] as unknown as JsonValue) ?? null;
  }
  return { [kind.key]: run };
}

/**
 * Projects a run snapshot to SPEC.md's workflow run. `outputs` holds step outputs loaded from the
 * blob store (by step run id); inline ones are read from the snapshot.
 */
export function toWorkflowRun(
  state: RunState,
  outputs: ReadonlyMap<string, JsonValue> = new Map(),
): WorkflowRun {
  const fileOf = (id: string): FileSummary | undefined => state.fileIndex[id];
  const files = (ids: readonly string[]) =>
    ids.map(fileOf).filter((f): f is FileSummary => f !== undefined);
  return {
    object: 'workflow_run',
    id: state.id,
    workflow: state.workflow,
    workflowVersion: state.workflowVersion,
    dashboardUrl: null,
    status: state.status,
    priority: state.priority,
    metadata: state.metadata,
    batchId: state.batchId,
    files: files(state.fileIds),
    failureReason: state.failureReason,
    failureMessage: state.failureMessage,
    initialRunAt: state.initialRunAt,
    reviewedByUser: state.reviewedByUser,
    reviewed: state.reviewed,
    rejectionNote: state.rejectionNote,
    reviewedAt: state.reviewedAt,
    startTime: state.startTime,
    endTime: state.endTime,
    stepRuns: state.stepRuns.map((sr) => toStepRun(state, sr, outputs.get(sr.id) ?? sr.output)),
    usage: runUsage(state),
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
  };
}

/** Projects one step run to SPEC.md's StepRun. */
export function toStepRun(
  state: RunState,
  sr: StepRunState,
  output: JsonValue | undefined,
): StepRun {
  const files = sr.fileIds
    .map((id) => state.fileIndex[id])
    .filter((f): f is FileSummary => f !== undefined);
  return {
    object: 'workflow_step_run',
    id: sr.id,
    workflowRunId: state.id,
    stepType: sr.stepType,
    status: sr.status,
    files,
    step: {
      object: 'workflow_step',
      id: stepId(state.definitionId, sr.stepName),
      name: sr.stepName,
      type: sr.stepType,
    },
    result: resultOf(sr, output, files),
    attempt: sr.attempt,
    startTime: sr.startTime ?? null,
    endTime: sr.endTime ?? null,
    failureReason: sr.failureReason ?? null,
    failureMessage: sr.failureMessage ?? null,
    usage: sr.usage ?? null,
  };
}
