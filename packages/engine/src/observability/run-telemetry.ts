import type { RunEventInput } from '@docflow/storage';
import {
  type Attributes,
  type Context,
  context,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { isFinalStandaloneRunStatus, isSettledRunStatus } from '../run/lifecycle.ts';
import type { RunState, StepRunState } from '../run/run-state.ts';
import type { StandaloneRunState } from '../standalone/standalone-state.ts';
import type { EngineLogger, LogLevel } from './engine-logger.ts';
import { TELEMETRY_ATTRIBUTES as A } from './telemetry-attributes.ts';

/** The instrumentation scope of docflow's spans. */
export const TRACER_NAME = '@docflow/engine';

/** What {@link RunTelemetry} writes to. */
export interface RunTelemetryOptions {
  /** Receives the lifecycle records; none: no records. */
  readonly logger?: EngineLogger | undefined;
  /** Default: `trace.getTracer('@docflow/engine')`, a no-op until the host registers an SDK. */
  readonly tracer?: Tracer | undefined;
}

interface OpenRun {
  /** The run's span; undefined when nothing records it (no SDK registered, or sampled out). */
  readonly span: Span | undefined;
  /** Context whose active span is the run's: its step spans' parent. */
  readonly context: Context;
  readonly steps: Map<string, Span>;
}

const STEP_END_STATUSES = new Set(['PROCESSED', 'FAILED', 'CANCELLED', 'INVALIDATED']);

/**
 * The engine's logs and traces, read from what its runs commit: each commit's run log (the
 * entries `run.*`, `step.*`, `attempt.*` that storage keeps too) becomes log records and span
 * starts, events and ends, after the commit, so that neither tells of a change that was not
 * stored. A workflow run is a span from its creation (or, in another process, from the first
 * change it commits there) until it settles: PROCESSED, FAILED, REJECTED, CANCELLED, or
 * NEEDS_REVIEW, where it may wait for days; the commit that resumes it opens a new span. Each
 * step run is a child span from its creation to its end; executors run with it as the active
 * span, so that their own instrumented calls (HTTP to a model provider) nest under it. A
 * standalone run (parse, extract, classify, split) is one span. Attempts and retries are span
 * events. Records and attributes carry ids, names, types, statuses, attempts and failure reasons,
 * never metadata, outputs or secrets.
 *
 * Cost: a run whose span does not record (no SDK registered) has no step spans, and without a
 * logger no record is built: what is left per commit is a map lookup.
 */
export class RunTelemetry {
  readonly #logger: EngineLogger | undefined;
  readonly #tracer: Tracer;
  readonly #runs = new Map<string, OpenRun>();

  constructor(options: RunTelemetryOptions = {}) {
    this.#logger = options.logger;
    this.#tracer = options.tracer ?? trace.getTracer(TRACER_NAME);
  }

  /** After a workflow run's commit: its log entries as records, spans and span events. */
  workflowRunCommitted(state: RunState, log: readonly RunEventInput[]): void {
    const run =
      this.#runs.get(state.id) ??
      this.#open(state.id, 'docflow.workflow_run', {
        [A.WORKFLOW_RUN_ID]: state.id,
        [A.WORKFLOW_ID]: state.workflow.id,
        [A.WORKFLOW_NAME]: state.workflow.name,
        [A.WORKFLOW_VERSION]: state.workflowVersion.version,
      });
    if (run.span !== undefined || this.#logger !== undefined) {
      for (const entry of log) {
        if (entry.type.startsWith('step.')) this.#stepEntry(state, run, entry);
        else if (entry.type.startsWith('run.')) this.#workflowRunEntry(state, entry);
      }
    }
    if (isSettledRunStatus(state.status)) this.#closeWorkflowRun(state, run);
  }

  /** After a standalone run's commit: its log entries as records, its span and span events. */
  standaloneRunCommitted(state: StandaloneRunState, log: readonly RunEventInput[]): void {
    const run =
      this.#runs.get(state.id) ??
      this.#open(state.id, `docflow.${state.kind}`, {
        [A.RUN_ID]: state.id,
        [A.RUN_KIND]: state.kind,
      });
    const { span } = run;
    if (span !== undefined || this.#logger !== undefined) {
      for (const entry of log) this.#standaloneEntry(state, span, entry);
    }
    if (!isFinalStandaloneRunStatus(state.status)) return;
    this.#runs.delete(state.id);
    const failed = state.status === 'FAILED';
    if (span !== undefined) {
      span.setAttributes({ [A.RUN_STATUS]: state.status, [A.RUN_ATTEMPTS]: state.attempt });
      if (failed) this.#fail(span, A.RUN_FAILURE_REASON, state);
      span.end();
    }
    if (this.#logger === undefined) return;
    this.#log(
      failed ? 'warn' : 'info',
      {
        runId: state.id,
        kind: state.kind,
        event: `run.${state.status.toLowerCase()}`,
        status: state.status,
        attempts: state.attempt,
        ...failureFields(state),
        durationMs: durationMs(state.createdAt, state.updatedAt),
      },
      `run ${state.status.toLowerCase()}`,
    );
  }

  /**
   * Runs `fn` (an executor) with the span of step run or standalone run `key` (of run `runId`)
   * active, when there is one.
   */
  within<T>(key: string, runId: string, fn: () => T): T {
    const run = this.#runs.get(runId);
    if (run?.span === undefined) return fn();
    const span = key === runId ? run.span : run.steps.get(key);
    return span === undefined ? fn() : context.with(trace.setSpan(context.active(), span), fn);
  }

  /** A run was deleted: its spans end where they are. */
  deleted(runId: string): void {
    const run = this.#runs.get(runId);
    if (run === undefined) return;
    this.#runs.delete(runId);
    if (run.span === undefined) return;
    for (const span of run.steps.values()) span.end();
    run.span.setAttribute('docflow.deleted', true);
    run.span.end();
  }

  /**
   * The engine started: `released`, claims a previous process left; `requeued`, steps it was
   * executing, queued again.
   */
  started(fields: { readonly released: number; readonly requeued: number }): void {
    this.#log('info', { event: 'engine.started', ...fields }, 'engine started');
  }

  /** The engine stopped: spans still open end (their runs continue at the next start). */
  stopped(): void {
    for (const [runId, run] of this.#runs) {
      this.#runs.delete(runId);
      if (run.span === undefined) continue;
      for (const span of run.steps.values()) span.end();
      run.span.setAttribute('docflow.engine_stopped', true);
      run.span.end();
    }
    this.#log('info', { event: 'engine.stopped' }, 'engine stopped');
  }

  /**
   * Opens a run's span, a child of the caller's active span: a run created while a host's
   * request span is active belongs to that request's trace.
   */
  #open(id: string, name: string, attributes: Attributes): OpenRun {
    const span = this.#tracer.startSpan(name, { attributes });
    const run: OpenRun = span.isRecording()
      ? { span, context: trace.setSpan(ROOT_CONTEXT, span), steps: new Map() }
      : { span: undefined, context: ROOT_CONTEXT, steps: new Map() };
    this.#runs.set(id, run);
    return run;
  }

  #standaloneEntry(state: StandaloneRunState, span: Span | undefined, entry: RunEventInput): void {
    const attempt = (entry.data.attempt as number | undefined) ?? 0;
    const fields = { runId: state.id, kind: state.kind };
    if (entry.type === 'run.created') {
      this.#log('info', { ...fields, event: 'run.created', status: state.status }, 'run created');
    } else if (entry.type === 'attempt.started') {
      span?.addEvent('attempt.started', { [A.ATTEMPT]: attempt });
      this.#log('debug', { ...fields, event: 'run.attempt_started', attempt }, 'attempt started');
    } else if (entry.type === 'attempt.retry_scheduled') {
      const at = String(entry.data.at);
      const error = state.failureMessage ?? '';
      span?.addEvent('attempt.failed', {
        [A.ATTEMPT]: attempt,
        [A.ATTEMPT_ERROR]: error,
        [A.RETRY_AT]: at,
      });
      this.#log(
        'warn',
        { ...fields, event: 'run.attempt_failed', attempt, error, retryAt: at },
        'attempt failed; retry scheduled',
      );
    }
  }

  #workflowRunEntry(state: RunState, entry: RunEventInput): void {
    const status = entry.data.status as string | undefined;
    if (this.#logger === undefined || status === undefined) return;
    const fields = { runId: state.id, workflowId: state.workflow.id, status };
    if (entry.type === 'run.created') {
      this.#log(
        'info',
        { ...fields, event: 'workflow_run.created', version: state.workflowVersion.version },
        'run created',
      );
      return;
    }
    // Settled statuses are logged when the run's span closes.
    if (isSettledRunStatus(status as RunState['status'])) return;
    this.#log('debug', { ...fields, event: 'workflow_run.status' }, `run ${status.toLowerCase()}`);
  }

  #stepEntry(state: RunState, run: OpenRun, entry: RunEventInput): void {
    const stepRunId = entry.data.stepRunId as string;
    const sr = state.stepRuns.find((s) => s.id === stepRunId);
    if (sr === undefined) return;
    const status = entry.data.status as string | undefined;
    const ends = status !== undefined && STEP_END_STATUSES.has(status);
    if (run.span !== undefined) this.#stepSpan(state, run, sr, entry, ends);
    if (this.#logger === undefined) return;
    const fields = { runId: state.id, stepRunId, step: sr.stepName, stepType: sr.stepType };
    if (entry.type === 'step.start') {
      this.#log(
        'debug',
        { ...fields, event: 'step_run.started', attempt: sr.attempt },
        'step started',
      );
    } else if (entry.type === 'step.retry') {
      this.#log(
        'warn',
        {
          ...fields,
          event: 'step_run.attempt_failed',
          attempt: sr.attempt,
          error: sr.failureMessage ?? '',
        },
        'step attempt failed; retry scheduled',
      );
    } else if (ends) {
      this.#log(
        status === 'FAILED' ? 'warn' : 'debug',
        {
          ...fields,
          event: `step_run.${status.toLowerCase()}`,
          status,
          attempts: sr.attempt,
          ...failureFields(sr),
          durationMs: durationMs(sr.createdAt, sr.endTime ?? state.updatedAt),
        },
        `step ${status.toLowerCase()}`,
      );
    }
  }

  #stepSpan(
    state: RunState,
    run: OpenRun,
    sr: StepRunState,
    entry: RunEventInput,
    ends: boolean,
  ): void {
    let span = run.steps.get(sr.id);
    if (span === undefined) {
      span = this.#tracer.startSpan(
        `docflow.step_run ${sr.stepName}`,
        {
          attributes: {
            [A.STEP_RUN_ID]: sr.id,
            [A.STEP_NAME]: sr.stepName,
            [A.STEP_TYPE]: sr.stepType,
            [A.WORKFLOW_RUN_ID]: state.id,
          },
        },
        run.context,
      );
      run.steps.set(sr.id, span);
    }
    if (entry.type === 'step.start') {
      span.addEvent('attempt.started', { [A.ATTEMPT]: sr.attempt });
    } else if (entry.type === 'step.retry') {
      span.addEvent('attempt.failed', {
        [A.ATTEMPT]: sr.attempt,
        [A.ATTEMPT_ERROR]: sr.failureMessage ?? '',
      });
    } else if (ends) {
      run.steps.delete(sr.id);
      span.setAttributes({ [A.STEP_RUN_STATUS]: sr.status, [A.STEP_RUN_ATTEMPTS]: sr.attempt });
      if (sr.status === 'FAILED') this.#fail(span, A.STEP_RUN_FAILURE_REASON, sr);
      span.end();
    }
  }

  #closeWorkflowRun(state: RunState, run: OpenRun): void {
    this.#runs.delete(state.id);
    const failed = state.status === 'FAILED';
    if (run.span !== undefined) {
      // Steps still open (a HUMAN_REVIEW step waiting for its reviewer) end with the run's span.
      for (const [id, span] of run.steps) {
        const sr = state.stepRuns.find((s) => s.id === id);
        span.setAttribute(A.STEP_RUN_STATUS, sr?.status ?? 'UNKNOWN');
        span.end();
      }
      run.span.setAttribute(A.WORKFLOW_RUN_STATUS, state.status);
      if (failed) this.#fail(run.span, A.WORKFLOW_RUN_FAILURE_REASON, state);
      run.span.end();
    }
    if (this.#logger === undefined) return;
    this.#log(
      failed ? 'warn' : 'info',
      {
        runId: state.id,
        workflowId: state.workflow.id,
        event: `workflow_run.${state.status.toLowerCase()}`,
        status: state.status,
        steps: state.stepRuns.length,
        ...failureFields(state),
        durationMs: durationMs(state.createdAt, state.updatedAt),
      },
      `run ${state.status.toLowerCase().replace('_', ' ')}`,
    );
  }

  #fail(span: Span, reasonAttribute: string, failure: Failure): void {
    if (failure.failureReason) span.setAttribute(reasonAttribute, failure.failureReason);
    span.setStatus({ code: SpanStatusCode.ERROR, message: failure.failureMessage ?? '' });
  }

  #log(level: LogLevel, fields: Record<string, unknown>, message: string): void {
    this.#logger?.[level](fields, message);
  }
}

/** What a failed run or step run says of its failure. */
interface Failure {
  readonly status: string;
  readonly failureReason?: string | null | undefined;
  readonly failureMessage?: string | null | undefined;
}

function failureFields(failure: Failure): Record<string, unknown> {
  if (failure.status !== 'FAILED') return {};
  return { failureReason: failure.failureReason, failureMessage: failure.failureMessage };
}

function durationMs(from: string, to: string): number {
  return Date.parse(to) - Date.parse(from);
}
