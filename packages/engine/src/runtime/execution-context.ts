import type { StepContext, StepFiles } from '../step-executor.ts';
import type { StepAbort } from './step-abort.ts';

/** The fields of a {@link StepContext} besides its signal. */
export type ContextFields = Omit<StepContext, 'signal'>;

/**
 * The context of one execution attempt. A class, so that `signal` is a getter on its prototype:
 * the signal is made only when an executor reads it (see {@link StepAbort}), and an object
 * literal with a getter of its own is built through V8's slow path, which cost more than the
 * signal saved. Reading `signal`, or destructuring it, works as on any object; a spread copy
 * (`{ ...context }`) has no `signal`, so pass the context itself on.
 */
export class ExecutionContext implements StepContext {
  readonly #abort: StepAbort;
  readonly idempotencyKey: string;
  readonly runId: string;
  readonly stepRunId: string;
  readonly attempt: number;
  readonly files: StepFiles;
  readonly secrets: Readonly<Record<string, string>>;
  readonly now: () => Date;
  declare readonly resolveProcessor?: NonNullable<StepContext['resolveProcessor']>;

  constructor(abort: StepAbort, fields: ContextFields) {
    this.#abort = abort;
    this.idempotencyKey = fields.idempotencyKey;
    this.runId = fields.runId;
    this.stepRunId = fields.stepRunId;
    this.attempt = fields.attempt;
    this.files = fields.files;
    this.secrets = fields.secrets;
    this.now = fields.now;
    if (fields.resolveProcessor) this.resolveProcessor = fields.resolveProcessor;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }
}
