import type { JsonObject, JsonValue, WorkItem } from '@docflow/storage';
import { isStorageError } from '@docflow/storage';
import type { EngineContext } from '../internal/engine-context.ts';
import { drive } from '../run/control/control-steps.ts';
import { isFinalRunStatus } from '../run/lifecycle.ts';
import type { RuntimeStep } from '../run/run-graph.ts';
import type { RunState, StepRunState } from '../run/run-state.ts';
import {
  beginStep,
  completeStep,
  failStep,
  retryStep,
  settleCancelledStep,
} from '../run/run-transitions.ts';
import type { FileSummary, StepExecutor, StepSuccess, StepType } from '../step-executor.ts';
import {
  countLostExecution,
  countTakenOver,
  LOST_EXECUTIONS_REASON,
  noteUnfinished,
} from './lost-executions.ts';
import { redactVerdict, secretRedactor } from './redact-secrets.ts';
import type { RetryPolicy } from './retry-policy.ts';
import type { RunStore } from './run-store.ts';
import type { WorkTicket } from './scheduler.ts';
import { type AttemptDependencies, type AttemptVerdict, attemptStep } from './step-attempt.ts';
import { writeUntilStored } from './storage-retry.ts';
import type { WorkPlanner } from './work-plan.ts';

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
  /** Turns the outcome's work into queue rows or reservations; told of items with nothing to record. */
  readonly work: WorkPlanner;
  /** What the item holds (a claim or a reservation); the outcome's commit finishes it. */
  readonly ticket: WorkTicket;
  /** Told once per outage when the storage refuses an outcome (it is written again). */
  readonly onStorageError: (error: unknown) => void;
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
 * Counts an execution of the item's step found unfinished ({@link countLostExecution}); past the
 * bound, the step fails and this returns false, as it does when the step is no longer executing;
 * either way the item is then dropped. The decision is the transition's, made on the state it
 * commits (on a shared store, the process taken over may have recorded meanwhile that it was
 * alive), so the count commits holding the item, and the item goes after it.
 */
async function countLost(item: WorkItem, deps: StepRunnerDependencies): Promise<boolean> {
  const stepRunId = item.payload.stepRunId as string;
  let runAgain = true;
  await deps.store.mutate(
    item.runId,
    (state, tctx, fx) => {
      // Applied again to the stored state when the commit finds the run changed.
      runAgain = true;
      const cur = findStep(state, stepRunId);
      if (cur?.status !== 'PROCESSING' || state.status !== 'PROCESSING') {
        runAgain = false;
        return false;
      }
      const message = countLostExecution(cur, `Step ${cur.stepName} (${cur.stepType})`);
      if (message !== undefined) {
        runAgain = false;
        failStep(state, tctx, fx, cur, { reason: LOST_EXECUTIONS_REASON, message });
        drive(state, tctx, fx);
      }
      return true;
    },
    { holding: deps.ticket },
  );
  if (!runAgain) {
    await deps.work.done(deps.ticket, (dequeue, fences) =>
      deps.ctx.storage.commit({ dequeue, fences }),
    );
  }
  return runAgain;
}

/**
 * Executes one claimed work item: PENDING → PROCESSING (committed before the executor starts),
 * the executor, then the outcome committed with the queue item's removal. An item whose step run
 * is already PROCESSING is a crash leftover: the executor runs again with the same idempotency key.
 */
export async function runWorkItem(item: WorkItem, deps: StepRunnerDependencies): Promise<void> {
  const { store, ctx, ticket } = deps;
  const stepRunId = item.payload.stepRunId as string;
  const drop = () =>
    deps.work.done(ticket, (dequeue, fences) => ctx.storage.commit({ dequeue, fences }));
  // A reserved item arrives PROCESSING already (created so in the commit that started it); a
  // claimed one is PENDING and starts here, committed before the executor runs. On a store
  // shared by processes a claimed item's run is read as stored: another process may have
  // advanced it since this one cached it (finished the very step, after this one's lease on it
  // expired), and a step that is no longer PROCESSING must not run again.
  const current =
    deps.work.shared && !ticket.reserved
      ? await store.stored(item.runId)
      : await store.latest(item.runId);
  const before = current && findStep(current, stepRunId)?.status;
  const started =
    before === 'PENDING'
      ? await store.mutate(
          item.runId,
          (state, tctx, fx) => {
            const sr = findStep(state, stepRunId);
            if (sr?.status !== 'PENDING') return false;
            if (state.status !== 'PROCESSING' && state.status !== 'PENDING') return false;
            beginStep(state, fx, sr, tctx.now);
            return true;
          },
          { holding: ticket },
        )
      : current;
  if (!started) {
    await drop();
    return;
  }
  const sr = findStep(started, stepRunId);
  if (sr?.status === 'PROCESSING' && started.status === 'CANCELLING') {
    // Left by a process that stopped or died while the run was being cancelled: its executor is
    // gone, so the step settles as the cancellation would have settled it.
    await store.mutate(
      item.runId,
      (state, tctx, fx) => {
        const cur = findStep(state, stepRunId);
        if (state.status !== 'CANCELLING' || cur?.status !== 'PROCESSING') return false;
        settleCancelledStep(state, fx, cur, tctx.now);
        return true;
      },
      { finishing: ticket },
    );
    return;
  }
  if (sr?.status !== 'PROCESSING' || started.status !== 'PROCESSING') {
    await drop();
    return;
  }
  // A claimed item whose step was PROCESSING already: an execution that reached no outcome (its
  // process died, or a stop interrupted it). Counted before the executor starts again. A
  // reserved item is PROCESSING because this engine's own commit began it: nothing was lost.
  if (!ticket.reserved && before === 'PROCESSING' && !(await countLost(item, deps))) return;
  const graph =
    store.loadedGraph(started.definitionId) ?? (await store.graph(started.definitionId));
  const step = graph.step(sr.stepName);
  const override = step ? overrideFor(started, step) : undefined;
  // A run without secrets spares the await.
  const secrets = started.secretsRef ? await deps.secretsOf(started) : NO_SECRETS;
  const attempted: AttemptVerdict =
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
            secrets: () => secrets,
            timeoutMs: step?.timeoutMs,
            retry: step?.retry === undefined ? deps.retry : { ...deps.retry, ...step.retry },
          },
          deps.attempt,
        );
  // The run's secret values leave the verdict before it is stored, evented or sent.
  const verdict = redactVerdict(attempted, secretRedactor(secrets));
  if (verdict.kind === 'stopped') {
    // Stopped by engine.stop(), or because a renewal found the lease taken over.
    if (ticket.leaseLost) await noteTakenOver(item, deps);
    else {
      await noteUnfinished(() =>
        store.mutate(
          item.runId,
          (state) => {
            const cur = findStep(state, stepRunId);
            if (cur?.status !== 'PROCESSING') return false;
            cur.interrupted = true;
            return true;
          },
          { holding: ticket },
        ),
      );
    }
    return;
  }

  try {
    // The verdict exists only here: while the storage fails, it is written again until it holds.
    await writeUntilStored(() => recordVerdict(item, verdict, deps), storageRetry(deps));
  } catch (error) {
    // Another process took the step over while this one ran it: the outcome is not committed
    // (fencing), and the record says this process was alive.
    if (isStorageError(error, 'LEASE_LOST')) await noteTakenOver(item, deps);
    throw error;
  }
}

/**
 * Records on the item's step run that this process was still running it when another process
 * took it over ({@link countTakenOver}): the other process counted the execution as lost. Not
 * fenced (the lease is the other process's now); nothing is written once the run has finished.
 */
async function noteTakenOver(item: WorkItem, deps: StepRunnerDependencies): Promise<void> {
  const stepRunId = item.payload.stepRunId as string;
  await noteUnfinished(() =>
    deps.store.mutate(item.runId, (state) => {
      const cur = findStep(state, stepRunId);
      if (cur === undefined || isFinalRunStatus(state.status)) return false;
      countTakenOver(cur);
      return true;
    }),
  );
}

/** What {@link writeUntilStored} needs of the runner's dependencies. */
function storageRetry(deps: {
  readonly attempt: AttemptDependencies;
  readonly onStorageError: (error: unknown) => void;
}) {
  return { signal: deps.attempt.stopSignal, onError: deps.onStorageError };
}

/**
 * The verdict as it can be stored, and a large output's JSON text. An output whose JSON is
 * longer than the longest string JavaScript holds (`JSON.stringify` throws a RangeError: the
 * parse of a sheet of millions of cells) fails the step: storing it could never succeed, and
 * leaving the verdict unwritten would run the step again.
 */
function storableVerdict(
  verdict: Exclude<AttemptVerdict, { kind: 'stopped' }>,
  store: StepRunnerDependencies['store'],
): { verdict: Exclude<AttemptVerdict, { kind: 'stopped' }>; large?: string | undefined } {
  if (verdict.kind !== 'complete') return { verdict };
  try {
    return { verdict, large: store.largeOutput(verdict.outcome.output) };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return {
      verdict: {
        kind: 'fail',
        reason: 'INTERNAL_ERROR',
        message: `The step's output is too large to store (${error.message}): its JSON text is longer than the longest string JavaScript holds. Lower the step's limits (for a parse, limits.maxCells or page ranges) or split the document.`,
        ...(verdict.outcome.usage ? { usage: verdict.outcome.usage } : {}),
      },
    };
  }
}

/** Commits an attempt's verdict on its step run (and the item's removal). */
async function recordVerdict(
  item: WorkItem,
  attempted: Exclude<AttemptVerdict, { kind: 'stopped' }>,
  deps: StepRunnerDependencies,
): Promise<void> {
  const { store, ticket } = deps;
  const stepRunId = item.payload.stepRunId as string;
  const { verdict, large } = storableVerdict(attempted, store);
  const outputRef = large === undefined ? undefined : await store.storeOutput(stepRunId, large);

  await store.mutate(
    item.runId,
    (state, tctx, fx) => {
      const cur = findStep(state, stepRunId);
      if (!cur || isFinalRunStatus(state.status)) return false;
      if (state.status === 'CANCELLING') {
        settleCancelledStep(state, fx, cur, tctx.now);
        return true;
      }
      if (cur.status !== 'PROCESSING') return false;
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
          ...(verdict.processor ? { processor: verdict.processor } : {}),
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
      drive(state, tctx, fx);
      return true;
    },
    { finishing: ticket },
  );
}
