import type { JsonObject, JsonValue } from '@docflow/storage';

/** The 14 step types of a workflow definition (docs/workflows.md). */
export const STEP_TYPES = [
  'TRIGGER',
  'PARSE',
  'EXTRACT',
  'CLASSIFY',
  'SPLIT',
  'MERGE_EXTRACT',
  'CONDITIONAL',
  'CONDITIONAL_EXTRACT',
  'RULE_VALIDATION',
  'EXTERNAL_DATA_VALIDATION',
  'FILE_CONVERSION',
  'HUMAN_REVIEW',
  'COLLECT',
  'WEBHOOK_RESPONSE',
] as const;

/** A workflow step type. */
export type StepType = (typeof STEP_TYPES)[number];

/** The file types of the File resource. */
export type FileType = 'PDF' | 'CSV' | 'IMG' | 'TXT' | 'DOCX' | 'EXCEL' | 'XML' | 'HTML';

/** The interface's FileSummary: a file as embedded in runs and step runs. */
export interface FileSummary {
  readonly object: 'file';
  readonly id: string;
  readonly name: string;
  readonly type: FileType | null;
  readonly parentFileId?: string | null;
  readonly metadata: {
    readonly pageCount?: number;
    readonly parentSplit?: {
      readonly id: string;
      readonly type: string;
      readonly identifier: string;
      readonly startPage: number;
      readonly endPage: number;
    };
    readonly mimeType?: string;
    readonly size?: number;
  };
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The interface's RunUsage, as executors report it. */
export interface StepUsage {
  readonly credits: number;
  readonly pages?: number;
}

/** A file an executor creates (a split's child file, a converted PDF). */
export interface NewFile {
  readonly name: string;
  readonly data: Uint8Array;
  readonly parentFileId?: string;
  readonly metadata?: FileSummary['metadata'];
}

/** How executors read and create files. */
export interface StepFiles {
  /** The bytes of a file of the run. */
  read(fileId: string, options?: { signal?: AbortSignal }): Promise<Uint8Array>;
  /**
   * Stores a new file. The engine derives its id from the step run's idempotency key and `name`,
   * so an executor that runs again after a crash creates the same file, not a second one.
   */
  create(file: NewFile, options?: { signal?: AbortSignal }): Promise<FileSummary>;
}

/** What an executor receives. */
export interface StepInput<TConfig = JsonObject> {
  /** The step's name in the definition. */
  readonly stepName: string;
  readonly stepType: StepType;
  /** The step's `config`, validated against the executor's `configSchema`. */
  readonly config: TConfig;
  /** The files on the path that reached this step (one, a package's, or a split's child). */
  readonly files: readonly FileSummary[];
  /** Outputs of the steps this path passed, by step name. */
  readonly outputs: Readonly<Record<string, JsonValue>>;
  /** The run's metadata. */
  readonly metadata: JsonObject;
}

/**
 * The context of one execution attempt. Pass it on as it is: `signal` is a getter (the engine
 * makes the signal only when an executor reads it), so a spread copy has none.
 */
export interface StepContext {
  /** Aborted on cancel, on timeout and when another step fails the run. */
  readonly signal: AbortSignal;
  /** Stable across retries and crash recovery of the same step run. */
  readonly idempotencyKey: string;
  readonly runId: string;
  readonly stepRunId: string;
  /** 1 on the first attempt. */
  readonly attempt: number;
  readonly files: StepFiles;
  /** The run's secrets; never stored in plain text. */
  readonly secrets: Readonly<Record<string, string>>;
  /** Current time (the engine's clock). */
  now(): Date;
  /**
   * The configuration of a saved processor (`{ id, version }` in a step's config), from the
   * engine's extractors, classifiers and splitters. Rejects with NOT_FOUND for an unknown one.
   */
  resolveProcessor?(
    kind: 'EXTRACT' | 'CLASSIFY' | 'SPLITTER',
    reference: { readonly id: string; readonly version: string },
  ): Promise<JsonObject>;
}

/** A successful execution. */
export interface StepSuccess<TOutput extends JsonValue = JsonValue> {
  readonly output: TOutput;
  readonly usage?: StepUsage;
  /**
   * For routing steps: the value that `next` entries are matched against
   * (a classification id, a condition id, "pass"/"fail").
   */
  readonly route?: string | readonly string[] | null;
  /** The files the path carries from here on, in place of its own (FILE_CONVERSION). */
  readonly files?: readonly FileSummary[];
  /** Files created by the step, each starting a path of its own (SPLIT). */
  readonly forks?: readonly {
    readonly file: FileSummary;
    readonly route: string;
    readonly output?: JsonValue;
  }[];
}

/** A domain failure: the document or configuration made the step fail (a value, not an error). */
export interface StepFailure {
  readonly failure: {
    /** An interface failure reason (CORRUPT_FILE, PASSWORD_PROTECTED_FILE, …). */
    readonly reason: string;
    readonly message: string;
  };
  readonly usage?: StepUsage;
}

/** What an executor returns. */
export type StepOutcome<TOutput extends JsonValue = JsonValue> = StepSuccess<TOutput> | StepFailure;

/**
 * The contract between the engine and the work of a step. The engine owns control flow; an
 * executor is a plain async function with an AbortSignal (Temporal's activity lesson).
 * Throw a `StepError` with `retryable: true` for transient infrastructure failures.
 */
export interface StepExecutor<TConfig = JsonObject, TOutput extends JsonValue = JsonValue> {
  readonly type: StepType;
  /** JSON Schema of the step's `config`; checked at create, update and deploy. */
  readonly configSchema?: JsonObject;
  /** True when a step of this type cannot run without a config. */
  readonly requiresConfig?: boolean;
  /**
   * The configuration a run uses, with the executor's defaults applied, for the run to report
   * (the interface: a run's `config` is the config used, defaults applied). Given a config that passed
   * `configSchema`. Without it, a run reports its config as given.
   */
  appliedConfig?(config: TConfig): JsonObject;
  execute(input: StepInput<TConfig>, context: StepContext): Promise<StepOutcome<TOutput>>;
}

/** Identity helper that keeps an executor's config and output types. */
export function defineStep<TConfig = JsonObject, TOutput extends JsonValue = JsonValue>(
  executor: StepExecutor<TConfig, TOutput>,
): StepExecutor<TConfig, TOutput> {
  return executor;
}

/** True when an outcome is a {@link StepFailure}. */
export function isStepFailure(outcome: StepOutcome): outcome is StepFailure {
  return 'failure' in outcome;
}
