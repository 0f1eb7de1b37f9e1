import type { JsonValue, RunEventInput } from '@docflow/storage';
import {
  isFinalStandaloneRunStatus,
  nextStandaloneRunStatus,
  type StandaloneRunLifecycleEvent,
} from '../run/lifecycle.ts';
import type { StepUsage } from '../step-executor.ts';
import type { StandaloneRunState } from './standalone-state.ts';

/**
 * Work a standalone run's transition asks for, as a workflow step's (`WorkIntent`): its next
 * attempt may start (not before `at`), its pending attempt is no longer wanted, or its executing
 * attempt must stop. The runtime's work plan turns them into queue rows.
 */
export type StandaloneWorkIntent =
  | { readonly type: 'run'; readonly at: string }
  | { readonly type: 'drop' }
  | { readonly type: 'abort' };

/**
 * What a standalone run's transition causes besides its new snapshot, committed with it: run
 * events, work intents, and the interface's event of a finished run.
 */
export interface StandaloneEffects {
  readonly events: RunEventInput[];
  readonly work: StandaloneWorkIntent[];
  /** `processed` or `failed` when the run finished: `<kind>.processed` / `<kind>.failed`. */
  finished: 'processed' | 'failed' | undefined;
}

/** A fresh effects collector. */
export function newStandaloneEffects(): StandaloneEffects {
  return { events: [], work: [], finished: undefined };
}

function move(
  state: StandaloneRunState,
  fx: StandaloneEffects,
  event: StandaloneRunLifecycleEvent,
  now: string,
): boolean {
  const next = nextStandaloneRunStatus(state.status, event);
  if (next === undefined) return false;
  state.status = next;
  state.updatedAt = now;
  fx.events.push({ type: `run.${next.toLowerCase()}`, data: { status: next } });
  if (next === 'PROCESSED') fx.finished = 'processed';
  if (next === 'FAILED') fx.finished = 'failed';
  return true;
}

/**
 * A new run: PROCESSING with its first attempt queued, or PENDING for a run of a batch (the interface
 * keeps PENDING for those). A run whose file could not be fetched is created FAILED.
 */
export function createRun(
  state: StandaloneRunState,
  fx: StandaloneEffects,
  now: string,
  failure?: { readonly reason: string; readonly message: string },
): void {
  fx.events.push({ type: 'run.created', data: { status: state.status } });
  if (failure) {
    failRun(state, fx, now, failure);
    return;
  }
  if (state.batchId === null) move(state, fx, 'START', now);
  fx.work.push({ type: 'run', at: now });
}

/**
 * An attempt starts: PENDING → PROCESSING, and the attempt counts. A run found PROCESSING with no
 * retry waiting lost its executor to a crash or a stop: the same attempt runs again (same
 * idempotency key). Returns false when the run has nothing to execute.
 */
export function beginAttempt(
  state: StandaloneRunState,
  fx: StandaloneEffects,
  now: string,
): boolean {
  if (isFinalStandaloneRunStatus(state.status)) return false;
  if (state.status === 'PENDING') move(state, fx, 'START', now);
  else if (state.retryAt === undefined && state.attempt > 0) return true;
  delete state.retryAt;
  state.attempt += 1;
  state.startTime ??= now;
  state.updatedAt = now;
  fx.events.push({ type: 'attempt.started', data: { attempt: state.attempt } });
  return true;
}

/** The attempt succeeded: the run is PROCESSED with its output. */
export function completeRun(
  state: StandaloneRunState,
  fx: StandaloneEffects,
  now: string,
  result: { readonly output: JsonValue; readonly usage?: StepUsage | undefined },
): void {
  state.output = result.output;
  state.usage = result.usage ?? null;
  state.failureMessage = null;
  move(state, fx, 'COMPLETE', now);
}

/** The run failed: a domain failure, or an error that ran out of attempts. */
export function failRun(
  state: StandaloneRunState,
  fx: StandaloneEffects,
  now: string,
  failure: {
    readonly reason: string;
    readonly message: string;
    readonly usage?: StepUsage | undefined;
  },
): void {
  state.failureReason = failure.reason;
  state.failureMessage = failure.message;
  if (failure.usage) state.usage = failure.usage;
  delete state.retryAt;
  move(state, fx, 'FAIL', now);
}

/** The attempt threw a retryable error: the next one is queued for `at`; the run stays PROCESSING. */
export function scheduleRetry(
  state: StandaloneRunState,
  fx: StandaloneEffects,
  now: string,
  at: string,
  message: string,
): void {
  state.retryAt = at;
  state.failureMessage = message;
  state.updatedAt = now;
  fx.events.push({ type: 'attempt.retry_scheduled', data: { attempt: state.attempt, at } });
  fx.work.push({ type: 'run', at });
}

/** Cancels a PENDING or PROCESSING run: its queued attempt goes, an executing one is aborted. */
export function cancelRun(state: StandaloneRunState, fx: StandaloneEffects, now: string): boolean {
  if (!move(state, fx, 'CANCEL', now)) return false;
  fx.work.push({ type: 'drop' }, { type: 'abort' });
  delete state.retryAt;
  return true;
}
