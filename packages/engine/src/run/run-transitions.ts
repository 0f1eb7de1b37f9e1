import type { JsonObject, JsonValue } from '@docflow/storage';
import type { ProcessorUsed } from '../processors/processor-resource.ts';
import type { FileSummary, StepUsage } from '../step-executor.ts';
import {
  isFinalRunStatus,
  isLiveStepRunStatus,
  nextRunStatus,
  nextStepRunStatus,
  type RunLifecycleEvent,
  type StepRunLifecycleEvent,
} from './lifecycle.ts';
import type { RuntimeStep } from './run-graph.ts';
import { lineageOf } from './run-lineage.ts';
import type { RunState, StepRunState } from './run-state.ts';
import { CONTROL_STEP_TYPES, type Effects, type TransitionContext } from './transition-context.ts';

/**
 * The transitions of a workflow run: synchronous and pure (everything they read is in the state
 * and the context, loaded before). They change a draft of the state (`draftRunState`) and say
 * what else should happen in the effects: run events, the interface events, and work intents that the
 * runtime turns into queue rows or immediate starts. The control steps are in `control/`.
 */

/** Moves a step run by `event` (the step run machine decides what is legal). */
export function moveStep(
  state: RunState,
  sr: StepRunState,
  event: StepRunLifecycleEvent,
  fx: Effects,
  now: string,
): void {
  const next = nextStepRunStatus(sr.status, event);
  if (next === undefined) {
    throw new Error(`illegal step run transition ${sr.status} --${event}--> (step ${sr.stepName})`);
  }
  sr.status = next;
  if (next === 'PROCESSING') sr.startTime = now;
  if (next === 'PROCESSED' || next === 'FAILED' || next === 'CANCELLED') sr.endTime = now;
  fx.events.push({ type: `step.${event.toLowerCase()}`, data: { stepRunId: sr.id, status: next } });
  state.updatedAt = now;
}

/** Moves the run by `event` when the run machine allows it; false when it does not. */
export function moveRun(
  state: RunState,
  event: RunLifecycleEvent,
  fx: Effects,
  now: string,
): boolean {
  const next = nextRunStatus(state.status, event);
  if (next === undefined) return false;
  state.status = next;
  state.updatedAt = now;
  fx.events.push({ type: `run.${event.toLowerCase()}`, data: { status: next } });
  if (isFinalRunStatus(next)) state.endTime = now;
  const eventType = RUN_EVENT_TYPES[next];
  if (eventType) fx.engineEvents.push({ eventType });
  return true;
}

const RUN_EVENT_TYPES: Partial<Record<RunState['status'], string>> = {
  PROCESSED: 'workflow_run.completed',
  FAILED: 'workflow_run.failed',
  NEEDS_REVIEW: 'workflow_run.needs_review',
  REJECTED: 'workflow_run.rejected',
  CANCELLED: 'workflow_run.cancelled',
};

/** Creates a PENDING step run at `stepName`; an executor step asks to run. */
export function addStepRun(
  state: RunState,
  ctx: TransitionContext,
  fx: Effects,
  stepName: string,
  fileIds: string[],
  parents: readonly string[],
): StepRunState {
  const step = ctx.graph.step(stepName);
  if (!step) throw new Error(`unknown step ${stepName}`);
  const sr: StepRunState = {
    id: ctx.newId('workflow_step_run_'),
    stepName,
    stepType: step.type,
    status: 'PENDING',
    fileIds,
    parents: [...parents],
    attempt: 0,
    createdAt: ctx.now,
  };
  state.stepRuns.push(sr);
  fx.events.push({ type: 'step.created', data: { stepRunId: sr.id, step: stepName } });
  if (!CONTROL_STEP_TYPES.has(step.type)) fx.work.push({ type: 'run', stepRunId: sr.id });
  return sr;
}

/** The steps a finished step run continues to, by its route. */
export function successors(
  step: RuntimeStep,
  route: string | string[] | null | undefined,
): string[] {
  const next = step.next ?? [];
  switch (step.type) {
    case 'CLASSIFY':
    case 'SPLIT':
      return next.filter((n) => n.classificationId === route).map((n) => n.step);
    case 'CONDITIONAL':
      return next.filter((n) => n.conditionId === route).map((n) => n.step);
    case 'RULE_VALIDATION':
      return next.filter((n) => n.result === undefined || n.result === route).map((n) => n.step);
    case 'WEBHOOK_RESPONSE':
      return [];
    default:
      return next.map((n) => n.step);
  }
}

/**
 * Adds files to the run's file index as a new index, not additions to the old one: it is shared
 * with the committed state (run-draft.ts).
 */
function indexFiles(state: RunState, files: readonly FileSummary[]): void {
  const index = { ...state.fileIndex };
  for (const f of files) index[f.id] = f;
  state.fileIndex = index;
}

/** Marks a step run PROCESSED with its output and moves its path (or forks) on. */
export function completeStep(
  state: RunState,
  ctx: TransitionContext,
  fx: Effects,
  sr: StepRunState,
  result: {
    output: JsonValue;
    outputRef?: string;
    usage?: StepUsage;
    /** The saved processor the step ran, and its config. */
    processor?: { readonly used: ProcessorUsed; readonly config: JsonObject };
    route?: string | string[] | null;
    forks?: readonly { file: FileSummary; route: string }[];
    files?: readonly FileSummary[];
  },
): void {
  const step = ctx.graph.step(sr.stepName);
  if (!step) throw new Error(`unknown step ${sr.stepName}`);
  if (result.outputRef === undefined) sr.output = result.output;
  else sr.outputRef = result.outputRef;
  if (result.usage) sr.usage = result.usage;
  if (result.processor) sr.processor = result.processor;
  if (result.route !== undefined) sr.route = result.route;
  // A retried step that succeeded keeps no trace of the failed attempt's message.
  delete sr.failureMessage;
  moveStep(state, sr, 'COMPLETE', fx, ctx.now);
  fx.engineEvents.push({ eventType: 'workflow_run.step_run.processed', stepRunId: sr.id });
  const parents = [sr.id];
  if (result.forks && result.forks.length > 0) {
    indexFiles(
      state,
      result.forks.map((fork) => fork.file),
    );
    for (const fork of result.forks) {
      for (const target of successors(step, fork.route)) {
        addStepRun(state, ctx, fx, target, [fork.file.id], parents);
      }
    }
    return;
  }
  let fileIds = sr.fileIds;
  if (result.files && result.files.length > 0) {
    indexFiles(state, result.files);
    fileIds = result.files.map((f) => f.id);
  }
  for (const target of successors(step, result.route)) {
    addStepRun(state, ctx, fx, target, [...fileIds], parents);
  }
}

/** Fails a step run; the run fails too unless the step continues on failure. */
export function failStep(
  state: RunState,
  ctx: TransitionContext,
  fx: Effects,
  sr: StepRunState,
  failure: { reason: string; message: string; usage?: StepUsage },
): void {
  sr.failureReason = failure.reason;
  sr.failureMessage = failure.message;
  if (failure.usage) sr.usage = failure.usage;
  moveStep(state, sr, 'FAIL', fx, ctx.now);
  const step = ctx.graph.step(sr.stepName);
  if (step?.config?.failureBehavior === 'CONTINUE') {
    for (const target of successors(step, null)) {
      addStepRun(state, ctx, fx, target, [...sr.fileIds], [sr.id]);
    }
    return;
  }
  failRun(state, fx, ctx.now, failure.reason, `Step "${sr.stepName}" failed: ${failure.message}`);
}

/** Fails the run and stops every other live step run. */
export function failRun(
  state: RunState,
  fx: Effects,
  now: string,
  reason: string,
  message: string,
): void {
  if (!moveRun(state, 'FAIL', fx, now)) return;
  state.failureReason = reason;
  state.failureMessage = message;
  stopLiveSteps(state, fx, now);
}

function stopLiveSteps(state: RunState, fx: Effects, now: string): void {
  for (const other of state.stepRuns) {
    if (!isLiveStepRunStatus(other.status)) continue;
    if (other.status === 'PROCESSING') fx.work.push({ type: 'abort', stepRunId: other.id });
    if (other.status === 'PENDING' && !CONTROL_STEP_TYPES.has(other.stepType)) {
      fx.work.push({ type: 'drop', stepRunId: other.id });
    }
    moveStep(state, other, 'CANCEL', fx, now);
  }
}

/**
 * Requests cancellation. Pending work is dropped at once; in-flight executors are aborted and the
 * run stays CANCELLING until each has returned ({@link settleCancelledStep}).
 */
export function cancelRun(state: RunState, fx: Effects, now: string): void {
  if (!moveRun(state, 'CANCEL', fx, now)) return;
  for (const sr of state.stepRuns) {
    if (sr.status === 'PROCESSING') {
      fx.work.push({ type: 'abort', stepRunId: sr.id });
      continue;
    }
    if (!isLiveStepRunStatus(sr.status)) continue;
    if (sr.status === 'PENDING' && !CONTROL_STEP_TYPES.has(sr.stepType)) {
      fx.work.push({ type: 'drop', stepRunId: sr.id });
    }
    moveStep(state, sr, 'CANCEL', fx, now);
  }
  settle(state, fx, now);
}

/** An aborted executor of a cancelling run returned: its step run ends CANCELLED. */
export function settleCancelledStep(
  state: RunState,
  fx: Effects,
  sr: StepRunState,
  now: string,
): void {
  if (isLiveStepRunStatus(sr.status)) moveStep(state, sr, 'CANCEL', fx, now);
  settle(state, fx, now);
}

/** Puts a step run back to PENDING; its next attempt may start at `at`. */
export function retryStep(
  state: RunState,
  fx: Effects,
  sr: StepRunState,
  now: string,
  at: string,
  error: string,
): void {
  moveStep(state, sr, 'RETRY', fx, now);
  sr.failureMessage = error;
  fx.work.push({ type: 'run', stepRunId: sr.id, at });
}

/**
 * An executor step run's attempt starts: PENDING → PROCESSING, and the attempt counts. The run's
 * first step to start starts the run (PENDING → PROCESSING, `initialRunAt` and `startTime`).
 */
export function beginStep(state: RunState, fx: Effects, sr: StepRunState, now: string): void {
  sr.attempt += 1;
  moveStep(state, sr, 'START', fx, now);
  if (state.status === 'PENDING') startExecuting(state, fx, now);
}

/** The run starts executing: PENDING → PROCESSING, with `initialRunAt` and `startTime`. */
function startExecuting(state: RunState, fx: Effects, now: string): void {
  moveRun(state, 'START', fx, now);
  state.initialRunAt ??= now;
  state.startTime ??= now;
}

/** Derives the run status from its step runs (the run machine decides what is legal). */
export function settle(state: RunState, fx: Effects, now: string): void {
  if (isFinalRunStatus(state.status)) return;
  if (state.status === 'CANCELLING') {
    if (!state.stepRuns.some((s) => s.status === 'PROCESSING')) moveRun(state, 'SETTLED', fx, now);
    return;
  }
  const working = state.stepRuns.some((s) => s.status === 'PENDING' || s.status === 'PROCESSING');
  // A run that waits for its first step stays PENDING; one that ends without any (every step
  // inline) started all the same.
  if (state.status === 'PENDING' && !working) startExecuting(state, fx, now);
  if (working) {
    if (state.status === 'NEEDS_REVIEW') moveRun(state, 'APPROVE', fx, now);
    return;
  }
  const parked = state.stepRuns.some(
    (s) => s.stepType === 'HUMAN_REVIEW' && s.status === 'WAITING',
  );
  if (parked) {
    if (state.status !== 'NEEDS_REVIEW') moveRun(state, 'AWAIT_REVIEW', fx, now);
    return;
  }
  moveRun(state, 'COMPLETE', fx, now);
}

/** A compact JSON object copy of the state for storage. */
export function toSnapshot(state: RunState): JsonObject {
  return state as unknown as JsonObject;
}

/** Rejects a run waiting for review: it ends REJECTED with the note. */
export function rejectReview(
  state: RunState,
  fx: Effects,
  now: string,
  review: { reviewer: string; note: string | null },
): void {
  moveRun(state, 'REJECT', fx, now);
  state.reviewed = true;
  state.reviewedByUser = review.reviewer;
  state.reviewedAt = now;
  state.rejectionNote = review.note;
  stopLiveSteps(state, fx, now);
}

/**
 * Re-routes from a CLASSIFY step whose output a reviewer corrected: everything that descends
 * from it is INVALIDATED and its successors are created anew for the corrected route.
 */
export function rerouteFrom(
  state: RunState,
  ctx: TransitionContext,
  fx: Effects,
  sr: StepRunState,
  route: string,
): void {
  const descends = (s: StepRunState): boolean => {
    const ref = lineageOf(state, s)[sr.stepName];
    return ref === sr.id || (Array.isArray(ref) && ref.includes(sr.id));
  };
  for (const other of state.stepRuns) {
    if (other === sr || !descends(other)) continue;
    if (
      other.status === 'INVALIDATED' ||
      other.status === 'FAILED' ||
      other.status === 'CANCELLED'
    ) {
      continue;
    }
    if (other.status === 'PROCESSING') fx.work.push({ type: 'abort', stepRunId: other.id });
    if (other.status === 'PENDING' && !CONTROL_STEP_TYPES.has(other.stepType)) {
      fx.work.push({ type: 'drop', stepRunId: other.id });
    }
    moveStep(state, other, 'INVALIDATE', fx, ctx.now);
  }
  sr.route = route;
  const step = ctx.graph.step(sr.stepName);
  if (!step) return;
  for (const target of successors(step, route)) {
    addStepRun(state, ctx, fx, target, [...sr.fileIds], [sr.id]);
  }
}
