import type { JsonObject, JsonValue, WorkItem, WorkItemInput } from '@docflow/storage';
import { EngineErrorCode, isEngineError } from '../errors.ts';
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
import type { FileSummary, StepExecutor, StepSuccess, StepType } from '../step-executor.ts';
import type { RetryPolicy } from './retry-policy.ts';
import type { RunStore } from './run-store.ts';
import type { Slot } from './scheduler.ts';
import { type AttemptDependencies, type AttemptVerdict, attemptStep } from './step-attempt.ts';

const NO_SECRETS: Readonly<Record<string, string>> = Object.freeze({});

/** What executing a work item needs. */
export interface StepRunnerDependencies {
  readonly ctx: EngineContext;
  readonly store: RunStore;
  readonly executors: ReadonlyMap<StepType, StepExecutor>;
  /** The engine's default retry policy (a step's `retry` overrides fields of it). */
  readonly retry: RetryPolicy;
  /** What one attempt needs (aborts, stop signal, jitter, processor resolution). */
  readonly attempt: AttemptDependencies;
  secretsOf(state: RunState): Promise<Readonly<Record<string, string>>>;
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

/** A processor output given at run creation (`outputs`), as the step's outcome. */
function overrideOutcome(stepType: StepType, output: JsonValue): StepSuccess {
  if (stepType !== 'CLASSIFY') return { output };
  const id = (output as { id?: unknown } | null)?.id;
  return { output, route: typeof id === 'string' ? id : null };
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
  const override = step ? overrideFor(started, step) : undefined;
  const verdict: AttemptVerdict =
    override !== undefined
      ? { kind: 'complete', outcome: overrideOutcome(sr.stepType, override) }
      : await attemptStep(
          {
            key: sr.id,
            runId: started.id,
            stepType: sr.stepType,
            attempt: sr.attempt,
            executor: step ? deps.executors.get(sr.stepType) : undefined,
            input: async () => ({
              stepName: sr.stepName,
              stepType: sr.stepType,
              config: (step?.config ?? {}) as JsonObject,
              files: sr.fileIds
                .map((id) => started.fileIndex[id])
                .filter((f): f is FileSummary => f !== undefined),
              outputs: await store.loadLineage(started, sr),
              metadata: started.metadata,
            }),
            // A run without secrets spares the await.
            secrets: () => (started.secretsRef ? deps.secretsOf(started) : NO_SECRETS),
            timeoutMs: step?.timeoutMs,
            retry: { ...deps.retry, ...(step?.retry ?? {}) },
          },
          deps.attempt,
        );
  if (verdict.kind === 'stopped') return;

  const large = verdict.kind === 'complete' ? store.largeOutput(verdict.outcome.output) : undefined;
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
      if (verdict.kind === 'retry') {
        retryStep(state, fx, cur, tctx.now, verdict.at, verdict.message);
      } else if (verdict.kind === 'fail') {
        failStep(state, tctx, fx, cur, {
          reason: verdict.reason,
          message: verdict.message,
          ...(verdict.usage ? { usage: verdict.usage } : {}),
        });
      } else {
        const { outcome } = verdict;
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
