import type { JsonObject, JsonValue, WorkItem, WorkItemInput } from '@docflow/storage';
import { EngineErrorCode, isEngineError, StepError } from '../errors.ts';
import { readFileBytes, storeFile } from '../files/file-store.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import { isFinalRunStatus } from '../run/lifecycle.ts';
import type { RuntimeStep } from '../run/run-graph.ts';
import type { RunState, StepRunState } from '../run/run-state.ts';
import {
  beginStep,
  completeStep,
  drive,
  failStep,
  retryStep,
  settleCancelledStep,
} from '../run/run-transitions.ts';
import {
  type FileSummary,
  isStepFailure,
  type StepContext,
  type StepExecutor,
  type StepOutcome,
  type StepType,
} from '../step-executor.ts';
import { ExecutionContext } from './execution-context.ts';
import type { RunStore } from './run-store.ts';
import type { Slot } from './scheduler.ts';
import { StepAbort } from './step-abort.ts';

/** Retry policy of executor steps; a step's `retry` overrides fields of the engine default. */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 3). */
  readonly maxAttempts: number;
  readonly initialIntervalMs: number;
  readonly backoffCoefficient: number;
  readonly maxIntervalMs: number;
}

/** The engine's default retry policy. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  initialIntervalMs: 1000,
  backoffCoefficient: 2,
  maxIntervalMs: 60_000,
};

/** The abort reason when `engine.stop()` interrupts an executor: its work runs again on start. */
export const STOPPING = Symbol('docflow.engine.stopping');

/** What executing a work item needs. */
export interface StepRunnerDependencies {
  readonly ctx: EngineContext;
  readonly store: RunStore;
  readonly executors: ReadonlyMap<StepType, StepExecutor>;
  readonly retry: RetryPolicy;
  /** Aborts of executing step runs (cancel, failure elsewhere, invalidation, stop). */
  readonly aborts: Map<string, StepAbort>;
  /** Aborted by `engine.stop()`: work that reaches its executor after that does not start it. */
  readonly stopSignal?: AbortSignal;
  secretsOf(state: RunState): Promise<Readonly<Record<string, string>>>;
  /** Saved processor configs for executors (`context.resolveProcessor`). */
  resolveProcessor?: StepContext['resolveProcessor'];
  /** Random in [0, 1) for jitter (injectable for tests). */
  random(): number;
  /** The item's scheduler slot, which its outcome's commit may hand to its run's next step. */
  readonly slot?: Slot;
  /** Gives the item's scheduler slot back (called once its outcome is committed). */
  release?(): void;
  /**
   * When a reserved item whose outcome could not be committed may be claimed again (RFC 3339):
   * a lease's length from now, as for a claimed item whose lease ran out.
   */
  retryAt(): string;
}

/** Backoff before attempt `attempt + 1`, with ±20% jitter. */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number): number {
  const base = Math.min(
    policy.maxIntervalMs,
    policy.initialIntervalMs * policy.backoffCoefficient ** Math.max(0, attempt - 1),
  );
  return Math.round(base * (0.8 + 0.4 * random()));
}

function findStep(state: RunState, id: string): StepRunState | undefined {
  return state.stepRuns.find((s) => s.id === id);
}

function overrideFor(state: RunState, step: RuntimeStep): JsonValue | undefined {
  const config = step.config ?? {};
  for (const key of ['extractor', 'classifier', 'splitter']) {
    const ref = config[key] as { id?: unknown } | undefined;
    if (ref && typeof ref.id === 'string' && ref.id in state.outputOverrides) {
      return state.outputOverrides[ref.id];
    }
  }
  return undefined;
}

function routeOfOverride(stepType: StepType, output: JsonValue): string | null | undefined {
  if (stepType !== 'CLASSIFY') return undefined;
  const id = (output as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : null;
}

/**
 * Executes one claimed work item: PENDING → PROCESSING (committed before the executor starts),
 * the executor, then the outcome committed with the queue item's removal. An item whose step run
 * is already PROCESSING is a crash leftover: the executor runs again with the same idempotency key.
 */
export async function runWorkItem(item: WorkItem, deps: StepRunnerDependencies): Promise<void> {
  const { store, ctx } = deps;
  const stepRunId = item.payload.stepRunId as string;
  // A claimed item has a queue row, which goes with its outcome; a reserved one has none.
  const queued = deps.slot?.queued ?? true;
  const dropItem = () => (queued ? ctx.storage.commit({ dequeue: [item.id] }) : undefined);
  // A reserved item arrives PROCESSING already (created so in the commit that queued it); a
  // claimed one is PENDING and starts here, committed before the executor runs.
  const current = await store.latest(item.runId);
  const started =
    current && findStep(current, stepRunId)?.status === 'PENDING'
      ? await store.mutate(item.runId, (state, tctx, fx) => {
          const sr = findStep(state, stepRunId);
          if (sr?.status !== 'PENDING' || state.status !== 'PROCESSING') return false;
          beginStep(state, fx, sr, tctx.now);
          return true;
        })
      : current;
  if (!started) {
    await dropItem();
    return;
  }
  const sr = findStep(started, stepRunId);
  if (sr?.status === 'PROCESSING' && started.status === 'CANCELLING') {
    // Left by a process that stopped or died while the run was being cancelled: its executor is
    // gone, so the step settles as the cancellation would have settled it.
    await store.mutate(item.runId, (state, tctx, fx) => {
      if (queued) fx.dequeue.push(item.id);
      const cur = findStep(state, stepRunId);
      if (state.status === 'CANCELLING' && cur?.status === 'PROCESSING') {
        settleCancelledStep(state, fx, cur, tctx.now);
      }
      return true;
    });
    return;
  }
  if (sr?.status !== 'PROCESSING' || started.status !== 'PROCESSING') {
    await dropItem();
    return;
  }
  const graph =
    store.loadedGraph(started.definitionId) ?? (await store.graph(started.definitionId));
  const step = graph.step(sr.stepName);
  const executor = deps.executors.get(sr.stepType);

  let outcome: StepOutcome | undefined;
  let error: unknown;
  const abort = new StepAbort();
  deps.aborts.set(sr.id, abort);
  // stop() aborts the executions it finds; this one may have begun after that.
  if (deps.stopSignal?.aborted) abort.abort(STOPPING);
  const timeoutMs = step?.timeoutMs;
  const timerStop = typeof timeoutMs === 'number' ? new AbortController() : undefined;
  if (timerStop && typeof timeoutMs === 'number') {
    ctx.clock.sleep(timeoutMs, timerStop.signal).then(
      () => abort.abort(new StepError(`timed out after ${timeoutMs} ms`, { retryable: true })),
      () => undefined,
    );
  }
  try {
    if (abort.aborted) throw abort.reason;
    const override = step ? overrideFor(started, step) : undefined;
    if (override !== undefined) {
      const route = routeOfOverride(sr.stepType, override);
      outcome = route === undefined ? { output: override } : { output: override, route };
    } else if (!executor || !step) {
      outcome = {
        failure: {
          reason: 'INTERNAL_ERROR',
          message: `no executor is registered for ${sr.stepType}`,
        },
      };
    } else {
      const files: FileSummary[] = sr.fileIds
        .map((id) => started.fileIndex[id])
        .filter((f): f is FileSummary => f !== undefined);
      const context = new ExecutionContext(abort, {
        idempotencyKey: sr.id,
        runId: started.id,
        stepRunId: sr.id,
        attempt: sr.attempt,
        // A run without secrets spares the await.
        secrets: started.secretsRef ? await deps.secretsOf(started) : {},
        now: () => ctx.clock.now(),
        files: {
          read: (fileId) => readFileBytes(ctx, fileId, 'fileId'),
          create: (file) => storeFile(ctx, file, sr.id),
        },
        ...(deps.resolveProcessor ? { resolveProcessor: deps.resolveProcessor } : {}),
      });
      outcome = await executor.execute(
        {
          stepName: sr.stepName,
          stepType: sr.stepType,
          config: (step.config ?? {}) as JsonObject,
          files,
          outputs: await store.loadLineage(started, sr),
          metadata: started.metadata,
        },
        context,
      );
    }
  } catch (e) {
    error = abort.aborted ? (abort.reason ?? e) : e;
  } finally {
    timerStop?.abort();
    deps.aborts.delete(sr.id);
  }
  if (abort.reason === STOPPING) return;

  const large = outcome && !isStepFailure(outcome) ? store.largeOutput(outcome.output) : undefined;
  const outputRef = large === undefined ? undefined : await store.storeOutput(sr.id, large);

  const settle = store.mutate(
    item.runId,
    async (state, tctx, fx) => {
      if (queued) fx.dequeue.push(item.id);
      const cur = findStep(state, stepRunId);
      if (!cur || isFinalRunStatus(state.status)) return true;
      if (state.status === 'CANCELLING') {
        settleCancelledStep(state, fx, cur, tctx.now);
        return true;
      }
      if (cur.status !== 'PROCESSING') return true;
      if (error !== undefined || outcome === undefined) {
        const policy: RetryPolicy = { ...deps.retry, ...(step?.retry ?? {}) };
        const retryable = error instanceof StepError ? error.retryable : true;
        const message = error instanceof Error ? error.message : String(error);
        if (retryable && cur.attempt < policy.maxAttempts) {
          const delay = backoffMs(policy, cur.attempt, deps.random);
          const at = new Date(Date.parse(tctx.now) + delay).toISOString();
          retryStep(state, fx, cur, tctx.now, at, message);
        } else {
          const reason = error instanceof StepError ? error.reason : 'INTERNAL_ERROR';
          failStep(state, tctx, fx, cur, { reason, message });
        }
      } else if (isStepFailure(outcome)) {
        failStep(state, tctx, fx, cur, {
          reason: outcome.failure.reason,
          message: outcome.failure.message,
          ...(outcome.usage ? { usage: outcome.usage } : {}),
        });
      } else {
        completeStep(state, tctx, fx, cur, {
          output: outcome.output,
          ...(outputRef === undefined ? {} : { outputRef }),
          ...(outcome.usage ? { usage: outcome.usage } : {}),
          ...(outcome.route === undefined
            ? {}
            : {
                route: Array.isArray(outcome.route)
                  ? [...outcome.route]
                  : (outcome.route as string | null),
              }),
          ...(outcome.forks ? { forks: outcome.forks } : {}),
          ...(outcome.files ? { files: outcome.files } : {}),
        });
      }
      await drive(state, tctx, fx);
      return true;
    },
    undefined,
    // The slot is free once the outcome is committed, before the commit's events are published:
    // a client that creates its next run on hearing this one ended finds room for it.
    {
      ...(deps.slot ? { handoff: deps.slot } : {}),
      ...(deps.release ? { committed: deps.release } : {}),
    },
  );
  if (queued) {
    await settle;
    return;
  }
  try {
    await settle;
  } catch (error) {
    // A deleted run has nothing left to run.
    if (isEngineError(error, EngineErrorCode.NOT_FOUND)) throw error;
    // The outcome was not stored, so the step is still PROCESSING. A claimed item would run again
    // once its lease ran out; a reserved one has no row to lease: give it one that becomes
    // claimable after a lease's time, as the claimed item would. Should that fail too, the step
    // runs again at the next start (`requeueExecutingSteps`).
    await ctx.storage
      .commit({ enqueue: [{ ...queuedAgain(item), availableAt: deps.retryAt() }] })
      .catch(() => undefined);
    throw error;
  }
}

/** A reserved item as a queue item of its own. */
function queuedAgain(item: WorkItem): WorkItemInput {
  return {
    id: item.id,
    runId: item.runId,
    kind: item.kind,
    priority: item.priority,
    payload: item.payload,
  };
}
