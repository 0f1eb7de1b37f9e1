import type { JsonObject } from '@docflow/storage';
import { EngineErrorCode, isEngineError, StepError } from '../errors.ts';
import { readFileBytes, storeFile } from '../files/file-store.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import type { RunTelemetry } from '../observability/run-telemetry.ts';
import type { ProcessorUsed } from '../processors/processor-resource.ts';
import {
  isStepFailure,
  type StepContext,
  type StepExecutor,
  type StepInput,
  type StepSuccess,
  type StepType,
  type StepUsage,
} from '../step-executor.ts';
import { ExecutionContext } from './execution-context.ts';
import { afterError, type RetryPolicy } from './retry-policy.ts';
import { StepAbort } from './step-abort.ts';

/** The failure reason of a run whose file was deleted before its step could read it. */
export const FILE_DELETED = 'FILE_DELETED';

/** The abort reason when `engine.stop()` interrupts an executor: its work runs again on start. */
export const STOPPING = Symbol('docflow.engine.stopping');

/**
 * One execution attempt of a step: a workflow run's step run, or a standalone run (a parse,
 * extract, classify or split run is one step).
 */
export interface StepAttempt {
  /**
   * The step run's id (a standalone run's own id): the idempotency key executors get, the key
   * its abort is registered under, and what files it creates are keyed by.
   */
  readonly key: string;
  readonly runId: string;
  readonly stepType: StepType;
  /** 1 on the first attempt. */
  readonly attempt: number;
  /** The executor of the step's type; none fails the attempt. */
  readonly executor: StepExecutor | undefined;
  /** The executor's input (the config, files and outputs of the path). */
  input(): StepInput | Promise<StepInput>;
  /** The run's secrets (read only for runs that have some). */
  secrets(): Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>;
  /**
   * An attempt that runs longer is aborted (and retried as a retryable failure); without one, the
   * engine's `defaultTimeoutMs` applies.
   */
  readonly timeoutMs?: number | undefined;
  readonly retry: RetryPolicy;
}

/** What an attempt needs from the engine. */
export interface AttemptDependencies {
  readonly ctx: EngineContext;
  /** Aborts of executing attempts, by key (cancel, failure elsewhere, invalidation, stop). */
  readonly aborts: Map<string, StepAbort>;
  /** Aborted by `engine.stop()`: an attempt that starts after that does not run its executor. */
  readonly stopSignal: AbortSignal;
  /** Random in [0, 1) for retry jitter. */
  readonly random: () => number;
  /** The timeout of an attempt that has none of its own (`createEngine({ stepTimeoutMs })`). */
  readonly defaultTimeoutMs?: number | undefined;
  /** Logs and traces: the executor runs with its step's span active. */
  readonly telemetry?: RunTelemetry | undefined;
  /**
   * Saved processor configs for executors (`context.resolveProcessor`), with the processor and
   * version they are, which the attempt's outcome records.
   */
  readonly resolveProcessor?:
    | ((
        kind: string,
        reference: { readonly id: string; readonly version: string },
      ) => Promise<{ readonly config: JsonObject; readonly used: ProcessorUsed }>)
    | undefined;
}

/** The saved processor an attempt ran, and the config it ran with. */
export interface ProcessorRun {
  readonly used: ProcessorUsed;
  readonly config: JsonObject;
}

/** What follows an attempt: its outcome, another attempt later, or nothing (the engine stopped). */
export type AttemptVerdict =
  | {
      readonly kind: 'complete';
      readonly outcome: StepSuccess;
      /** The saved processor the executor resolved, if it did. */
      readonly processor?: ProcessorRun | undefined;
    }
  | {
      readonly kind: 'fail';
      readonly reason: string;
      readonly message: string;
      readonly usage?: StepUsage | undefined;
    }
  | { readonly kind: 'retry'; readonly at: string; readonly message: string }
  | { readonly kind: 'stopped' };

/**
 * Runs one attempt: the context (signal, idempotency key, files, secrets), the executor, and the
 * verdict of the retry policy: complete with its outcome, fail (a domain failure, or an error
 * that is not retryable or ran out of attempts), or retry at a time. A timeout aborts the
 * executor with a retryable StepError; `engine.stop()` aborts it with {@link STOPPING}, and the
 * verdict is `stopped`: the work runs again at the next start, with the same idempotency key.
 * Workflow runs and standalone runs both execute through here.
 */
export async function attemptStep(
  attempt: StepAttempt,
  deps: AttemptDependencies,
): Promise<AttemptVerdict> {
  const { ctx } = deps;
  const abort = new StepAbort();
  deps.aborts.set(attempt.key, abort);
  // stop() aborts the attempts it finds; this one may have begun after that.
  if (deps.stopSignal.aborted) abort.abort(STOPPING);
  const timeoutMs = attempt.timeoutMs ?? deps.defaultTimeoutMs;
  const timerStop = typeof timeoutMs === 'number' ? new AbortController() : undefined;
  if (timerStop && typeof timeoutMs === 'number') {
    ctx.clock.sleep(timeoutMs, timerStop.signal).then(
      () => abort.abort(new StepError(`timed out after ${timeoutMs} ms`, { retryable: true })),
      () => undefined,
    );
  }
  let verdict: AttemptVerdict;
  // A file of the run deleted since it was created: whatever the executor makes of the missing
  // bytes, the attempt fails with that reason, and no retry brings the file back.
  let deleted: string | undefined;
  let processor: ProcessorRun | undefined;
  const resolveProcessorOf =
    (
      resolve: NonNullable<AttemptDependencies['resolveProcessor']>,
    ): NonNullable<StepContext['resolveProcessor']> =>
    async (kind, reference) => {
      const resolved = await resolve(kind, reference);
      processor = resolved;
      return resolved.config;
    };
  try {
    if (abort.aborted) throw abort.reason;
    const executor = attempt.executor;
    if (executor === undefined) {
      return {
        kind: 'fail',
        reason: 'INTERNAL_ERROR',
        message: `no executor is registered for ${attempt.stepType}`,
      };
    }
    const secrets = attempt.secrets();
    const context = new ExecutionContext(abort, {
      idempotencyKey: attempt.key,
      runId: attempt.runId,
      stepRunId: attempt.key,
      attempt: attempt.attempt,
      secrets: secrets instanceof Promise ? await secrets : secrets,
      now: () => ctx.clock.now(),
      files: {
        read: async (fileId) => {
          try {
            return await readFileBytes(ctx, fileId, 'fileId');
          } catch (error) {
            if (isEngineError(error, EngineErrorCode.NOT_FOUND)) deleted = fileId;
            throw error;
          }
        },
        create: (file) => storeFile(ctx, file, attempt.key),
      },
      ...(deps.resolveProcessor
        ? { resolveProcessor: resolveProcessorOf(deps.resolveProcessor) }
        : {}),
    });
    const input = await attempt.input();
    const outcome = await (deps.telemetry
      ? deps.telemetry.within(attempt.key, attempt.runId, () => executor.execute(input, context))
      : executor.execute(input, context));
    verdict = isStepFailure(outcome)
      ? {
          kind: 'fail',
          reason: outcome.failure.reason,
          message: outcome.failure.message,
          usage: outcome.usage,
        }
      : { kind: 'complete', outcome, processor };
  } catch (e) {
    const error = abort.aborted ? (abort.reason ?? e) : e;
    if (error === STOPPING) return { kind: 'stopped' };
    verdict = afterError(error, attempt.attempt, attempt.retry, deps.random, ctx.clock.now());
  } finally {
    timerStop?.abort();
    deps.aborts.delete(attempt.key);
  }
  // An executor that settles anyway after stop() aborted it: its result is not trusted.
  if (abort.reason === STOPPING) return { kind: 'stopped' };
  if (deleted !== undefined && verdict.kind !== 'complete') {
    return {
      kind: 'fail',
      reason: FILE_DELETED,
      message: `File ${deleted} was deleted before the run could read it`,
    };
  }
  return verdict;
}
