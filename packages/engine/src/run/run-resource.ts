import { createHash } from 'node:crypto';
import type { JsonObject, JsonValue } from '@docflow/storage';
import type { FileSummary, StepType } from '../step-executor.ts';
import type { RunStatus, StepRunStatus } from './lifecycle.ts';
import type { RunGraph, RuntimeStep } from './run-graph.ts';
import type {
  RunState,
  StepRunState,
  WorkflowSummary,
  WorkflowVersionSummary,
} from './run-state.ts';

/** The interface's StepRun, as `workflowRuns.get` returns it. */
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

/** One child run of a workflow run's RunUsage `breakdown`. */
export interface WorkflowRunUsageEntry {
  /** `parse_run`, `extract_run`, `classify_run`, `split_run`, or `workflow_step_run` for other steps. */
  readonly object: string;
  readonly id: string;
  readonly credits: number;
}

/** The interface's RunUsage of a workflow run: the aggregate across its child runs. */
export interface WorkflowRunUsage {
  readonly credits: number;
  readonly totalCredits: number;
  readonly breakdown: readonly WorkflowRunUsageEntry[];
}

/** The interface workflow run. */
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
  /** What the run's steps cost, with a `breakdown` by child run in creation order. */
  readonly usage: WorkflowRunUsage | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

const everyFile = (): boolean => true;

/** The summaries of `ids` that still exist (a deleted file leaves what a run returns). */
function filesOf(
  state: RunState,
  ids: readonly string[],
  present: (fileId: string) => boolean,
): FileSummary[] {
  const out: FileSummary[] = [];
  for (const id of ids) {
    const file = state.fileIndex[id];
    if (file !== undefined && present(id)) out.push(file);
  }
  return out;
}

const stepIds = new Map<string, string>();

/** A stable id for a definition step (definitions name steps; the interface gives them ids). */
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

/** The processor key of a processor run's step type (`extractor` for EXTRACT), and its inline config key. */
const PROCESSOR_KEYS: Partial<Record<StepType, string>> = {
  EXTRACT: 'extractor',
  CLASSIFY: 'classifier',
  SPLIT: 'splitter',
};

function resultOf(
  sr: StepRunState,
  output: JsonValue | undefined,
  files: readonly FileSummary[],
  step: RuntimeStep | undefined,
): JsonObject | null {
  // A package's step (several files) is multifile even once some of its files are deleted.
  const multifile = sr.fileIds.length > 1;
  const kind = PROCESSOR_RUN_KINDS[sr.stepType];
  const done = sr.status === 'PROCESSED' || sr.status === 'FAILED';
  const child = childRunOf(sr);
  if (!kind || !child) {
    if (output === undefined || !done) return null;
    // A result a review changed (RULE_VALIDATION evaluated again over corrected outputs) keeps
    // the first one beside it.
    return sr.review ? { output, initialOutput: sr.review.initialOutput } : { output };
  }
  const run: Record<string, JsonValue> = {
    object: child.object,
    id: child.id,
    status: processorStatus(sr.status),
    output: sr.status === 'PROCESSED' ? (output ?? null) : null,
    failureReason: sr.failureReason ?? null,
    failureMessage: sr.failureMessage ?? null,
    usage: (sr.usage as unknown as JsonValue) ?? null,
  };
  if (sr.stepType === 'PARSE') {
    run.file = multifile ? null : ((files[0] as unknown as JsonValue) ?? null);
  } else {
    run.reviewed = sr.review !== undefined;
    run.edited = sr.review !== undefined && Object.keys(sr.review.edits).length > 0;
    run.initialOutput = sr.review ? sr.review.initialOutput : null;
    run.reviewedOutput = sr.review ? (output ?? null) : null;
    run.edits = sr.review ? sr.review.edits : null;
    // A package's files: `file` is null, as on a standalone extract run over a package.
    run.file = multifile ? null : ((files[0] as unknown as JsonValue) ?? null);
    if (multifile) run.files = files as unknown as JsonValue;
    // The saved processor that ran, the version it was, and the config used (the processor's,
    // or the step's inline one).
    const key = PROCESSOR_KEYS[sr.stepType];
    if (key !== undefined) {
      run[key] = (sr.processor?.used.summary ?? null) as unknown as JsonValue;
      run[`${key}Version`] = (sr.processor?.used.version ?? null) as unknown as JsonValue;
      run.config =
        sr.processor?.config ?? (step?.config?.[`${key}Config`] as JsonObject | undefined) ?? null;
    }
  }
  return { [kind.key]: run };
}

/**
 * Projects a run snapshot to the interface's workflow run. `outputs` holds step outputs loaded from the
 * blob store (by step run id); inline ones are read from the snapshot. `present` says which files
 * still exist: deleted ones leave `files`, and a processor run on one shows `file: null`. `graph`
 * (the definition) gives a processor run the inline config its step ran with.
 */
export function toWorkflowRun(
  state: RunState,
  outputs: ReadonlyMap<string, JsonValue> = new Map(),
  present: (fileId: string) => boolean = everyFile,
  graph?: RunGraph,
): WorkflowRun {
  const files = (ids: readonly string[]) => filesOf(state, ids, present);
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
    stepRuns: state.stepRuns.map((sr) =>
      toStepRun(state, sr, outputs.get(sr.id) ?? sr.output, present, graph),
    ),
    usage: runUsage(state),
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
  };
}

/** Projects one step run to the interface's StepRun. */
export function toStepRun(
  state: RunState,
  sr: StepRunState,
  output: JsonValue | undefined,
  present: (fileId: string) => boolean = everyFile,
  graph?: RunGraph,
): StepRun {
  const files = filesOf(state, sr.fileIds, present);
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
    result: resultOf(sr, output, files, graph?.step(sr.stepName)),
    attempt: sr.attempt,
    startTime: sr.startTime ?? null,
    endTime: sr.endTime ?? null,
    failureReason: sr.failureReason ?? null,
    failureMessage: sr.failureMessage ?? null,
    usage: sr.usage ?? null,
  };
}

/** The id of the processor run a step run stands for (`pr_…`, `exr_…`), or undefined. */
function childRunOf(sr: StepRunState): { object: string; id: string } | undefined {
  const kind = PROCESSOR_RUN_KINDS[sr.stepType];
  if (!kind) return undefined;
  return { object: kind.object, id: `${kind.prefix}${sr.id.slice('workflow_step_run_'.length)}` };
}

/**
 * Sums the usage of every step run (the interface's RunUsage) and lists the child runs that make it up,
 * in the order they were created: a step's processor run (`pr_…`, `exr_…`, `clr_…`, `splr_…`), or
 * the step run itself for another step that reported credits.
 */
export function runUsage(state: RunState): WorkflowRunUsage | null {
  let credits = 0;
  let any = false;
  const breakdown: WorkflowRunUsageEntry[] = [];
  for (const sr of state.stepRuns) {
    if (!sr.usage) continue;
    any = true;
    credits += sr.usage.credits;
    const child = childRunOf(sr);
    if (child) breakdown.push({ ...child, credits: sr.usage.credits });
    else if (sr.usage.credits !== 0) {
      breakdown.push({ object: 'workflow_step_run', id: sr.id, credits: sr.usage.credits });
    }
  }
  return any ? { credits, totalCredits: credits, breakdown } : null;
}
