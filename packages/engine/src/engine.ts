import type { StorageAdapter } from '@docflow/storage';
import type { Clock } from './clock.ts';
import type { CreatedBy } from './created-by.ts';
import type { EngineEventListener } from './events/event-bus.ts';
import type { DownloadOptions } from './files/download-url.ts';
import type { EngineLogger } from './observability/engine-logger.ts';
import type { EngineServices } from './resources/engine-services.ts';
import type { GenerateSchema } from './resources/processors.ts';
import type { ParseNowInput } from './resources/standalone-runs.ts';
import type { RuntimeWebhookOptions } from './runtime/engine-runtime.ts';
import type { RetryPolicy } from './runtime/retry-policy.ts';
import type { SchedulerOptions } from './runtime/scheduler.ts';
import type { ParseRun } from './standalone/standalone-resource.ts';
import type { StepExecutor } from './step-executor.ts';

/** Options of `createEngine`. Every field is optional. */
export interface EngineOptions {
  /** Drafts extraction schemas for `extractors.create({ generate })` (a model provider). */
  readonly generateSchema?: GenerateSchema;
  /** Where everything is persisted; default `memoryStorage()`. */
  readonly storage?: StorageAdapter;
  /** Executors of the work steps (`builtinSteps()` from `@docflow/steps`). */
  readonly steps?: readonly StepExecutor[];
  /** Time source; tests pass a controllable clock (`@docflow/engine/testing`). */
  readonly clock?: Clock;
  /** Concurrency, per-step-type limits and rate limits, leases. */
  readonly scheduling?: SchedulerOptions;
  /** Default retry policy of executor steps and standalone runs. */
  readonly retry?: Partial<RetryPolicy>;
  /**
   * Longest an executor attempt may run, in ms (1 to 86,400,000), for standalone runs and for
   * workflow steps without a `timeoutMs` of their own: past it the attempt is aborted and counts
   * as a retryable failure. Default: no limit.
   */
  readonly stepTimeoutMs?: number;
  /** Key that run secrets are encrypted with at rest; without one, secrets do not survive a restart. */
  readonly secretKey?: string | Uint8Array;
  /**
   * Webhook dispatcher settings (retry schedule, timeouts, signed URLs); `enabled: false` sends
   * none from this engine; `loopbackBlobServer: true` serves signed-URL payloads from a loopback
   * HTTP server (127.0.0.1, a free port) when no `signedUrlProvider` is given.
   */
  readonly webhooks?: RuntimeWebhookOptions;
  /** Attribution of created resources (the interface's CreatedBy); default null. */
  readonly createdBy?: CreatedBy | null;
  /**
   * Told about failures the engine survives (a listener threw, storage hiccup in a loop); without
   * it (and without a `logger`) they go to the console.
   */
  readonly onError?: (error: unknown) => void;
  /**
   * Structured records of runs, steps and the engine's life (pino's interface; docs/observability.md).
   * Spans need no option: they go to the OpenTelemetry SDK the host registers, if any.
   */
  readonly logger?: EngineLogger;
  /** Random source in [0, 1) for retry jitter. */
  readonly random?: () => number;
  /**
   * Downloads of URL file sources (`file: { url }`): the `document` URL policy (only public
   * addresses by default; tests opt in to loopback with `{ urlPolicy: { allowLoopback: true } }`),
   * the largest download (100 MiB, read while streaming) and its timeout.
   */
  readonly downloads?: DownloadOptions;
}

/** The docflow engine: resources mirror the interface as method calls. */
export interface Engine extends EngineServices {
  /**
   * Parses a file synchronously (the interface's POST /parse): creates a parse run and waits for it,
   * at most five minutes. For onboarding and tests; production code uses `parseRuns`.
   */
  parse(input: ParseNowInput): Promise<ParseRun>;
  /** The storage the engine persists to. */
  readonly storage: StorageAdapter;
  /** Opens storage, recovers unfinished runs and starts workers. Idempotent. */
  start(): Promise<void>;
  /**
   * Stops workers: executors in flight are aborted and their work returns to the queue, to run
   * again (same idempotency key) on the next start. Closes the storage.
   */
  stop(): Promise<void>;
  /** Listens to the interface event types (`"*"` for all); returns an unsubscribe function. */
  on(eventType: string, listener: EngineEventListener): () => void;
  /** Resolves once no step is queued or running and no webhook is pending (for tests and scripts). */
  idle(options?: { timeoutMs?: number }): Promise<void>;
}
