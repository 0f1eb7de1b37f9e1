import { isStorageError, type LeaseFence, type WorkItem } from '@docflow/storage';
import { EngineErrorCode, isEngineError } from '../errors.ts';
import { isFinalStandaloneRunStatus } from '../run/lifecycle.ts';
import { STANDALONE_KIND_SPECS } from '../standalone/standalone-kinds.ts';
import type { StandaloneRunState } from '../standalone/standalone-state.ts';
import {
  beginAttempt,
  completeRun,
  failRun,
  scheduleRetry,
} from '../standalone/standalone-transitions.ts';
import type { FileSummary, StepExecutor, StepType } from '../step-executor.ts';
import {
  countLostExecution,
  countTakenOver,
  LOST_EXECUTIONS_REASON,
  noteUnfinished,
} from './lost-executions.ts';
import type { RetryPolicy } from './retry-policy.ts';
import type { StandaloneRunStore } from './standalone-store.ts';
import { type AttemptDependencies, attemptStep } from './step-attempt.ts';
import { writeUntilStored } from './storage-retry.ts';

/** What executing a standalone run's work item needs. */
export interface StandaloneRunnerDependencies {
  readonly store: StandaloneRunStore;
  readonly executors: ReadonlyMap<StepType, StepExecutor>;
  /** The engine's retry policy (`createEngine({ retry })`). */
  readonly retry: RetryPolicy;
  readonly attempt: AttemptDependencies;
  /** The leases the item's commits need still held (see `WorkPlanner.fences`). */
  readonly fences: readonly LeaseFence[];
  /** True once a renewal found the item's lease taken over by another process. */
  readonly leaseLost: () => boolean;
  /** Told once per outage when the storage refuses an outcome (it is written again). */
  readonly onStorageError: (error: unknown) => void;
}

const NO_SECRETS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Executes a claimed work item of a standalone run: the attempt starts (committed before the
 * executor runs), runs through the same step attempt as a workflow step, and its verdict is
 * committed with the item's removal: PROCESSED, FAILED, or the next attempt queued after its
 * backoff. A run cancelled or deleted meanwhile keeps its state; the item just goes.
 */
export async function runStandaloneItem(
  item: WorkItem,
  deps: StandaloneRunnerDependencies,
): Promise<void> {
  const id = item.payload.standaloneRunId as string;
  const { store, fences } = deps;
  let started: StandaloneRunState | undefined;
  try {
    let attempt = 0;
    const state = await store.mutate(
      id,
      (s, fx, now) => {
        const before = s.attempt;
        if (!beginAttempt(s, fx, now)) return false;
        attempt = s.attempt;
        if (s.attempt !== before || fx.events.length > 0) return true;
        // A run found executing: a stop left it (it runs again), or its process died with it
        // (counted, and given up past a bound), recorded before the executor starts again.
        const message = countLostExecution(s, `This ${s.kind.replaceAll('_', ' ')}`);
        if (message !== undefined) failRun(s, fx, now, { reason: LOST_EXECUTIONS_REASON, message });
        return true;
      },
      undefined,
      fences,
    );
    if (attempt > 0 && !isFinalStandaloneRunStatus(state.status)) started = state;
  } catch (error) {
    if (!isEngineError(error, EngineErrorCode.NOT_FOUND)) throw error;
  }
  if (started === undefined) {
    await store.dropItem(item.id, fences);
    return;
  }
  const state = started;
  const spec = STANDALONE_KIND_SPECS[state.kind];
  const verdict = await attemptStep(
    {
      key: state.id,
      runId: state.id,
      stepType: spec.stepType,
      attempt: state.attempt,
      executor: deps.executors.get(spec.stepType),
      input: () => ({
        stepName: state.kind,
        stepType: spec.stepType,
        config: state.stepConfig,
        files: state.fileIds
          .map((f) => state.fileIndex[f])
          .filter((f): f is FileSummary => f !== undefined),
        outputs: {},
        metadata: state.metadata,
      }),
      secrets: () => NO_SECRETS,
      retry: deps.retry,
    },
    deps.attempt,
  );
  if (verdict.kind === 'stopped') {
    // Stopped by engine.stop(), or because a renewal found the lease taken over.
    if (deps.leaseLost()) await noteTakenOver(id, store);
    else {
      await noteUnfinished(() =>
        store.mutate(
          id,
          (s) => {
            if (s.status !== 'PROCESSING') return false;
            s.interrupted = true;
            return true;
          },
          undefined,
          fences,
        ),
      );
    }
    return;
  }
  try {
    // The verdict exists only here: while the storage fails, it is written again until it holds.
    await writeUntilStored(
      () =>
        store.mutate(
          id,
          (s, fx, now) => {
            if (isFinalStandaloneRunStatus(s.status)) return false;
            switch (verdict.kind) {
              case 'complete':
                completeRun(s, fx, now, {
                  output: verdict.outcome.output,
                  usage: verdict.outcome.usage,
                });
                break;
              case 'fail':
                failRun(s, fx, now, verdict);
                break;
              case 'retry':
                scheduleRetry(s, fx, now, verdict.at, verdict.message);
                break;
            }
            return true;
          },
          item.id,
          fences,
        ),
      { signal: deps.attempt.stopSignal, onError: deps.onStorageError },
    );
  } catch (error) {
    // Another process took the run over while this one ran it: nothing is committed (fencing),
    // and the record says this process was alive.
    if (isStorageError(error, 'LEASE_LOST')) await noteTakenOver(id, store);
    // A run deleted while it executed has nothing left to record.
    if (!isEngineError(error, EngineErrorCode.NOT_FOUND)) throw error;
    await store.dropItem(item.id, fences);
  }
}

/** Records on the run that this process still ran it when another took it over (not fenced). */
async function noteTakenOver(id: string, store: StandaloneRunStore): Promise<void> {
  await noteUnfinished(() =>
    store.mutate(id, (s) => {
      if (isFinalStandaloneRunStatus(s.status)) return false;
      countTakenOver(s);
      return true;
    }),
  );
}
