import type { JsonObject, JsonValue, RunEventInput, WorkItemInput } from '@docflow/storage';
import type { FileSummary, StepType, StepUsage } from '../step-executor.ts';
import {
  isFinalRunStatus,
  isLiveStepRunStatus,
  nextRunStatus,
  nextStepRunStatus,
  type RunLifecycleEvent,
  type StepRunLifecycleEvent,
} from './lifecycle.ts';
import type { RunGraph, RuntimeStep } from './run-graph.ts';
import { lineageOf, mergedLineage } from './run-lineage.ts';
import type { RunState, StepRunState } from './run-state.ts';

/** Step types the engine runs itself, inline, without an executor or a queue item. */
export const CONTROL_STEP_TYPES: ReadonlySet<StepType> = new Set<StepType>([
  'TRIGGER',
  'CONDITIONAL',
  'RULE_VALIDATION',
  'HUMAN_REVIEW',
  'COLLECT',
  'WEBHOOK_RESPONSE',
]);

/** An engine event to emit once the commit that caused it has succeeded. */
export interface PendingEngineEvent {
  readonly eventType: string;
  /** The step run, for `workflow_run.step_run.processed`. */
  readonly stepRunId?: string;
  /** A payload of its own; default the run (or the step run). */
  readonly payload?: JsonObject;
  /** Deliver to this endpoint only, instead of routing by subscriptions. */
  readonly endpointId?: string;
}

/** What a transition causes besides the new snapshot; committed with it. */
export interface Effects {
  readonly events: RunEventInput[];
  readonly enqueue: WorkItemInput[];
  readonly dequeue: string[];
  readonly engineEvents: PendingEngineEvent[];
  /** Step runs whose in-flight executors must be aborted after the commit. */
  readonly aborts: string[];
  /**
   * Executor steps this engine reserved a slot for and started PROCESSING in the commit: dispatch
   * them after it. They get no queue row: the PROCESSING step run in the committed snapshot is
   * their durable record, from which `start()` queues them again after a crash
   * (`requeueExecutingSteps`). `lease` is the reservation, given back if the commit fails.
   */
  readonly dispatch: WorkItemInput[];
}

/** A fresh effects collector. */
export function newEffects(): Effects {
  return { events: [], enqueue: [], dequeue: [], engineEvents: [], aborts: [], dispatch: [] };
}

/** The result of a control step evaluated inline. */
export type ControlResult =
  | { readonly kind: 'done'; readonly output: JsonValue; readonly route?: string | null }
  | { readonly kind: 'wait' }
  | { readonly kind: 'fail'; readonly reason: string; readonly message: string };

/** What transitions need from the engine. */
export interface TransitionContext {
  readonly graph: RunGraph;
  readonly now: string;
  newId(prefix: string): string;
  /** Evaluates CONDITIONAL, RULE_VALIDATION and WEBHOOK_RESPONSE steps. */
  evaluateControl(
    state: RunState,
    stepRun: StepRunState,
    step: RuntimeStep,
    fx: Effects,
  ): Promise<ControlResult>;
  /**
   * Reserves an execution slot for a new executor step of this priority, when one is free and
   * nothing more urgent waits: the step then starts PROCESSING in the same commit that creates
   * it, and this engine runs it at once, with no queue row (see `Effects.dispatch`). Returns the
   * reservation, or undefined.
   */
  reserve?(stepType: StepType, priority: number): { owner: string; leaseMs: number } | undefined;
}

/** The work-item id of a step run's current attempt. */
export function workItemId(stepRun: StepRunState): string {
  return `${stepRun.id}#${stepRun.attempt}`;
}

function moveStep(
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

function moveRun(state: RunState, event: RunLifecycleEvent, fx: Effects, now: string): boolean {
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

/** Creates a PENDING step run at `stepName`; executor steps get a queue item. */
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
  if (!CONTROL_STEP_TYPES.has(step.type)) {
    const lease = ctx.reserve?.(step.type, state.priority);
    if (lease) {
      beginStep(state, fx, sr, ctx.now);
      fx.dispatch.push({ ...queueItem(state, sr, ctx.now), lease });
    } else enqueueStep(state, sr, fx, ctx.now);
  }
  return sr;
}

/** The queue item of a step run's current attempt. */
export function queueItem(state: RunState, sr: StepRunState, availableAt: string): WorkItemInput {
  return {
    id: workItemId(sr),
    runId: state.id,
    kind: `step:${sr.stepType}`,
    priority: state.priority,
    availableAt,
    payload: { stepRunId: sr.id },
  };
}

/** Queues the current attempt of an executor step run. */
export function enqueueStep(
  state: RunState,
  sr: StepRunState,
  fx: Effects,
  availableAt: string,
): void {
  fx.enqueue.push(queueItem(state, sr, availableAt));
}

/** Starts a new run: TRIGGER is processed at once and the path moves on. */
export async function startRun(
  state: RunState,
  ctx: TransitionContext,
  fx: Effects,
): Promise<void> {
  moveRun(state, 'START', fx, ctx.now);
  state.initialRunAt ??= ctx.now;
  state.startTime ??= ctx.now;
  addStepRun(state, ctx, fx, ctx.graph.trigger.name, [...state.fileIds], []);
  await drive(state, ctx, fx);
}

function successors(step: RuntimeStep, route: string | string[] | null | undefined): string[] {
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
    if (other.status === 'PROCESSING') fx.aborts.push(other.id);
    if (other.status === 'PENDING' && !CONTROL_STEP_TYPES.has(other.stepType)) {
      fx.dequeue.push(workItemId(other));
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
      fx.aborts.push(sr.id);
      continue;
    }
    if (!isLiveStepRunStatus(sr.status)) continue;
    if (sr.status === 'PENDING' && !CONTROL_STEP_TYPES.has(sr.stepType)) {
      fx.dequeue.push(workItemId(sr));
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

/** Puts a step run back to PENDING with a delayed queue item. */
export function retryStep(
  state: RunState,
  fx: Effects,
  sr: StepRunState,
  now: string,
  availableAt: string,
  error: string,
): void {
  moveStep(state, sr, 'RETRY', fx, now);
  sr.failureMessage = error;
  enqueueStep(state, sr, fx, availableAt);
}

/** Marks a PENDING executor step run PROCESSING and counts the attempt. */
export function beginStep(state: RunState, fx: Effects, sr: StepRunState, now: string): void {
  sr.attempt += 1;
  moveStep(state, sr, 'START', fx, now);
}

/**
 * A path arriving at an open COLLECT joins it: the open step run gets the arriving one's parents
 * too (a new list: values below a step run are shared with the committed state). Where either
 * holds a whole lineage (snapshots from before 2026-11-23), the open one gets the merged lineage.
 */
function joinPaths(state: RunState, open: StepRunState, arriving: StepRunState): void {
  if (open.lineage === undefined && arriving.lineage === undefined) {
    const parents = [...(open.parents ?? [])];
    for (const id of arriving.parents ?? []) if (!parents.includes(id)) parents.push(id);
    open.parents = parents;
    return;
  }
  open.lineage = mergedLineage(lineageOf(state, open), lineageOf(state, arriving));
  delete open.parents;
}

/**
 * Runs control steps inline until only executor work, waits and ends remain, releases COLLECTs
 * that nothing can reach any more, and derives the run status.
 */
export async function drive(state: RunState, ctx: TransitionContext, fx: Effects): Promise<void> {
  for (;;) {
    if (isFinalRunStatus(state.status) || state.status === 'CANCELLING') break;
    const sr = state.stepRuns.find(
      (s) => s.status === 'PENDING' && CONTROL_STEP_TYPES.has(s.stepType),
    );
    if (sr) {
      await runControlStep(state, ctx, fx, sr);
      continue;
    }
    if (!releaseOneCollect(state, ctx, fx)) break;
  }
  settle(state, fx, ctx.now);
}

async function runControlStep(
  state: RunState,
  ctx: TransitionContext,
  fx: Effects,
  sr: StepRunState,
): Promise<void> {
  const step = ctx.graph.step(sr.stepName);
  if (!step) throw new Error(`unknown step ${sr.stepName}`);
  switch (step.type) {
    case 'TRIGGER':
      completeStep(state, ctx, fx, sr, { output: null });
      return;
    case 'HUMAN_REVIEW':
      moveStep(state, sr, 'WAIT', fx, ctx.now);
      return;
    case 'COLLECT': {
      const open = state.stepRuns.find(
        (s) => s.stepName === sr.stepName && s.status === 'WAITING' && s.id !== sr.id,
      );
      if (open) {
        // Join: the arriving path's files and lineage move into the open collect.
        // New lists, not pushes: values below a step run are shared with the committed state.
        open.collected = [...(open.collected ?? []), sr.id];
        const fileIds = [...open.fileIds];
        for (const f of sr.fileIds) if (!fileIds.includes(f)) fileIds.push(f);
        open.fileIds = fileIds;
        joinPaths(state, open, sr);
        moveStep(state, sr, 'COMPLETE', fx, ctx.now);
        sr.output = { collectedInto: open.id };
        return;
      }
      sr.collected = [sr.id];
      moveStep(state, sr, 'WAIT', fx, ctx.now);
      return;
    }
    default: {
      const result = await ctx.evaluateControl(state, sr, step, fx);
      if (result.kind === 'wait') {
        moveStep(state, sr, 'WAIT', fx, ctx.now);
      } else if (result.kind === 'fail') {
        failStep(state, ctx, fx, sr, { reason: result.reason, message: result.message });
      } else {
        completeStep(state, ctx, fx, sr, {
          output: result.output,
          ...(result.route === undefined ? {} : { route: result.route }),
        });
      }
    }
  }
}

function releaseOneCollect(state: RunState, ctx: TransitionContext, fx: Effects): boolean {
  for (const collect of state.stepRuns) {
    if (collect.stepType !== 'COLLECT' || collect.status !== 'WAITING') continue;
    const blocked = state.stepRuns.some(
      (other) =>
        other !== collect &&
        isLiveStepRunStatus(other.status) &&
        ctx.graph.canReach(other.stepName, collect.stepName),
    );
    if (blocked) continue;
    const files = collect.fileIds.map((id) => state.fileIndex[id]).filter((f) => f !== undefined);
    completeStep(state, ctx, fx, collect, {
      output: { fileIds: files.map((f) => f.id), collected: collect.collected ?? [] },
    });
    return true;
  }
  return false;
}

/** Derives the run status from its step runs (the run machine decides what is legal). */
export function settle(state: RunState, fx: Effects, now: string): void {
  if (isFinalRunStatus(state.status)) return;
  if (state.status === 'CANCELLING') {
    if (!state.stepRuns.some((s) => s.status === 'PROCESSING')) moveRun(state, 'SETTLED', fx, now);
    return;
  }
  const working = state.stepRuns.some((s) => s.status === 'PENDING' || s.status === 'PROCESSING');
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

/** Sums the usage of every step run (SPEC.md RunUsage). */
export function runUsage(state: RunState): { credits: number; totalCredits: number } | null {
  let credits = 0;
  let any = false;
  for (const sr of state.stepRuns) {
    if (sr.usage) {
      credits += sr.usage.credits;
      any = true;
    }
  }
  return any ? { credits, totalCredits: credits } : null;
}

/** A compact JSON object copy of the state for storage. */
export function toSnapshot(state: RunState): JsonObject {
  return state as unknown as JsonObject;
}

/** Review decisions take effect only while the run waits for one. */
export function canReview(state: RunState): boolean {
  return state.status === 'NEEDS_REVIEW';
}

/**
 * Approves a run waiting for review: every parked HUMAN_REVIEW path continues. Corrected outputs
 * are applied by the caller before this, on the step runs they belong to.
 */
export async function approveReview(
  state: RunState,
  ctx: TransitionContext,
  fx: Effects,
  review: { reviewer: string },
): Promise<void> {
  moveRun(state, 'APPROVE', fx, ctx.now);
  state.reviewed = true;
  state.reviewedByUser = review.reviewer;
  state.reviewedAt = ctx.now;
  for (const sr of state.stepRuns) {
    if (sr.stepType === 'HUMAN_REVIEW' && sr.status === 'WAITING') {
      completeStep(state, ctx, fx, sr, {
        output: { decision: 'approve', reviewer: review.reviewer },
      });
    }
  }
  await drive(state, ctx, fx);
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
    if (other.status === 'PROCESSING') fx.aborts.push(other.id);
    if (other.status === 'PENDING' && !CONTROL_STEP_TYPES.has(other.stepType)) {
      fx.dequeue.push(workItemId(other));
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
