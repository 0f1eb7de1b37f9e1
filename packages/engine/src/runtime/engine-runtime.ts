import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { RunEventInput, WorkItem } from '@docflow/storage';
import { isoNow } from '../clock.ts';
import { EngineError, EngineErrorCode } from '../errors.ts';
import type { EventOutbox } from '../events/event-outbox.ts';
import { sweepOrphanFileBlobs } from '../files/file-store.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import type { RunTelemetry } from '../observability/run-telemetry.ts';
import type { ProcessorResolutionService } from '../processors/processor-resolution.ts';
import { isSettledRunStatus } from '../run/lifecycle.ts';
import type { RunState } from '../run/run-state.ts';
import type { StandaloneRunState } from '../standalone/standalone-state.ts';
import type { StepExecutor, StepType } from '../step-executor.ts';
import {
  createWebhookDispatcher,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from '../webhooks/dispatcher.ts';
import {
  createLoopbackBlobServer,
  type LoopbackBlobServer,
} from '../webhooks/loopback-blob-server.ts';
import { recoverUnfinishedWork } from './recovery.ts';
import { type RetryPolicy, resolveAttemptPolicy } from './retry-policy.ts';
import { RunStore } from './run-store.ts';
import { Scheduler, type SchedulerOptions, type WorkTicket } from './scheduler.ts';
import { SecretBox } from './secrets.ts';
import { runStandaloneItem } from './standalone-runner.ts';
import { StandaloneRunStore } from './standalone-store.ts';
import type { StepAbort } from './step-abort.ts';
import { type AttemptDependencies, STOPPING } from './step-attempt.ts';
import { runWorkItem } from './step-runner.ts';
import { Waiters } from './waiters.ts';
import { isStandaloneItem, type WorkPlan, WorkPlanner } from './work-plan.ts';

/** The controller of `stop()`: listened to by as many writes as wait for storage at once. */
function stopController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

/** Unfinished runs that `start()` reads and keeps for the claims that follow, at most. */
const RECOVERED_RUNS_KEPT = 10_000;

/** Webhook settings of the runtime (createEngine's `webhooks` option). */
export type RuntimeWebhookOptions = Omit<WebhookDispatcherOptions, 'storage' | 'clock'> & {
  /** Set false to not send webhooks from this engine (default true). */
  readonly enabled?: boolean;
  /** Serve signed-URL payloads from a loopback HTTP server (no `signedUrlProvider` given). */
  readonly loopbackBlobServer?: boolean;
};

/** What the runtime is made of. */
export interface EngineRuntimeOptions {
  readonly ctx: EngineContext;
  readonly outbox: EventOutbox;
  readonly executors: ReadonlyMap<StepType, StepExecutor>;
  /** Saved processor configs for executors (`context.resolveProcessor`). */
  readonly processors: ProcessorResolutionService;
  readonly scheduling?: SchedulerOptions | undefined;
  readonly retry?: Partial<RetryPolicy> | undefined;
  /** The timeout of an executor attempt that has none of its own. */
  readonly stepTimeoutMs?: number | undefined;
  readonly secretKey?: string | Uint8Array | undefined;
  readonly webhooks?: RuntimeWebhookOptions | undefined;
  readonly random?: (() => number) | undefined;
  readonly onError: (error: unknown) => void;
  /** Logs and traces of runs, steps and the engine's life. */
  readonly telemetry: RunTelemetry;
}

/** Where an engine is in its life: resource methods work only while it is `started`. */
export type EngineLifecycleState = 'new' | 'starting' | 'started' | 'stopped';

/**
 * The running part of an engine, with a lifecycle (new → starting → started → stopped): the
 * scheduler and the work it runs, the run store, the aborts of executing steps, the callers
 * waiting for runs, and the webhook dispatcher. `start()` recovers what a previous process left
 * and starts the workers; `stop()` aborts executing steps (their work runs again on the next
 * start) and closes storage.
 */
export class EngineRuntime {
  readonly store: RunStore;
  readonly scheduler: Scheduler;
  /** Aborts of executing step runs (cancel, failure elsewhere in the run, delete, stop). */
  readonly aborts = new Map<string, StepAbort>();
  /** Callers of `workflowRuns.waitFor`, resolved when their run settles. */
  readonly settled = new Waiters<RunState>();
  /** Run secrets at rest. */
  readonly secrets: SecretBox;
  /** Standalone runs' snapshots and their commits. */
  readonly standalone: StandaloneRunStore;
  /** Callers of a standalone run's `waitFor`, resolved when it finishes. */
  readonly finished = new Waiters<StandaloneRunState>();
  readonly #ctx: EngineContext;
  readonly #options: EngineRuntimeOptions;
  readonly #retry: RetryPolicy;
  readonly #random: () => number;
  /** Aborted by stop(); every executing attempt and storage retry listens to it. */
  readonly #stopping = stopController();
  /** Turns work intents into queue rows or reservations. */
  readonly #work: WorkPlanner;
  /** What every step attempt needs, workflow steps' and standalone runs' alike. */
  readonly #attempt: AttemptDependencies;
  readonly #idle = new Set<() => void>();
  #state: EngineLifecycleState = 'new';
  #starting: Promise<void> | undefined;
  #dispatcher: WebhookDispatcher | undefined;
  #blobServer: LoopbackBlobServer | undefined;
  #unsubscribe: (() => Promise<void>) | undefined;

  constructor(options: EngineRuntimeOptions) {
    const { ctx, outbox } = options;
    this.#ctx = ctx;
    this.#options = options;
    const policy = resolveAttemptPolicy(options.retry, options.stepTimeoutMs);
    this.#retry = policy.retry;
    this.#random = options.random ?? Math.random;
    this.secrets = new SecretBox(options.secretKey);
    this.#attempt = {
      ctx,
      aborts: this.aborts,
      stopSignal: this.#stopping.signal,
      random: this.#random,
      defaultTimeoutMs: policy.timeoutMs,
      telemetry: options.telemetry,
      resolveProcessor: (kind, ref) => options.processors.resolveForRun(kind, ref),
    };
    this.scheduler = new Scheduler({
      storage: ctx.storage,
      clock: ctx.clock,
      owner: `engine-${randomBytes(6).toString('hex')}`,
      onError: options.onError,
      ...(options.scheduling ? { scheduling: options.scheduling } : {}),
      execute: (item, ticket) => this.#execute(item, ticket),
      onDrained: () => this.#checkIdle(),
      onLeasesLost: (items) => this.#leasesLost(items),
    });
    this.#work = new WorkPlanner(this.scheduler, ctx.clock);
    this.store = new RunStore({
      ctx,
      prepareEvents: (state, pending, graph) => outbox.prepareRunEvents(state, pending, graph),
      work: this.#work,
      afterCommit: (state, plan, events, deliveries, log) =>
        this.#afterCommit(state, plan, events, deliveries, log),
      evicted: (runId) => options.telemetry.deleted(runId),
    });
    this.standalone = new StandaloneRunStore({
      ctx,
      outbox,
      finished: this.finished,
      abort: (runId) => this.aborts.get(runId)?.abort(new Error('run cancelled')),
      work: this.#work,
      notifyEnqueued: (items) => this.scheduler.notifyEnqueued(items),
      telemetry: options.telemetry,
    });
  }

  /** Where the engine is in its life. */
  get state(): EngineLifecycleState {
    return this.#state;
  }

  /** Throws NOT_STARTED unless the engine is started (resource methods call this first). */
  assertStarted(): void {
    if (this.#state === 'started') return;
    throw new EngineError(
      EngineErrorCode.NOT_STARTED,
      this.#state === 'stopped' ? 'the engine was stopped' : 'call engine.start() first',
    );
  }

  /** Opens storage, recovers unfinished work and starts the workers. Idempotent. */
  start(): Promise<void> {
    if (this.#state === 'started') return Promise.resolve();
    if (this.#state === 'stopped') {
      return Promise.reject(
        new EngineError(
          EngineErrorCode.INVALID_STATE,
          'a stopped engine cannot start again; create a new one',
        ),
      );
    }
    this.#starting ??= this.#start();
    return this.#starting;
  }

  async #start(): Promise<void> {
    const { storage, clock } = this.#ctx;
    this.#state = 'starting';
    await storage.open();
    // Bytes a crash left without their file document go before anything can store files.
    await sweepOrphanFileBlobs(storage);
    // The runs recovery reads are kept (up to a bound): the claims that follow would read them.
    const recovered = await recoverUnfinishedWork(storage, isoNow(clock), {
      seen: (run) => this.store.remember(run, RECOVERED_RUNS_KEPT),
    });
    await this.#listen();
    this.scheduler.start();
    await this.#startWebhooks();
    this.#state = 'started';
    this.#options.telemetry.started(recovered);
  }

  /**
   * On a store shared by processes: other processes' commits wake this engine's scheduler (new
   * or released work, with its availability and priority), its webhook dispatcher (new
   * deliveries) and the waiters of the runs they settled. This process's own commits wake them
   * directly.
   */
  async #listen(): Promise<void> {
    const { storage } = this.#ctx;
    if (storage.sharedByProcesses !== true || storage.subscribe === undefined) return;
    this.#unsubscribe = await storage.subscribe((wakeUp) => {
      if (wakeUp.local) return;
      if (wakeUp.topic === 'runs') {
        // Another process settled runs: what this process holds of them is behind (a waiter
        // that comes later reads storage), and its waiters for them read them again.
        this.store.settledElsewhere(wakeUp.runIds);
        this.settled.poke(wakeUp.runIds);
        this.finished.poke(wakeUp.runIds);
        return;
      }
      if (wakeUp.topic === 'deliveries') {
        this.#dispatcher?.notify();
        return;
      }
      if (wakeUp.availableAt === undefined) this.scheduler.notifyEnqueued();
      else {
        this.scheduler.notifyEnqueued([
          { priority: wakeUp.priority ?? 1, availableAt: wakeUp.availableAt },
        ]);
      }
    });
  }

  /**
   * Another process took these items over (their leases expired before this engine renewed
   * them): their attempts stop as they would on `stop()`, and commit nothing (their outcomes'
   * fences would fail anyway); the new holder runs them.
   */
  #leasesLost(items: readonly WorkItem[]): void {
    for (const item of items) {
      const key = (item.payload.stepRunId ?? item.payload.standaloneRunId) as string | undefined;
      if (key !== undefined) this.aborts.get(key)?.abort(STOPPING);
    }
  }

  async #startWebhooks(): Promise<void> {
    const { enabled, loopbackBlobServer, ...dispatcherOptions } = this.#options.webhooks ?? {};
    if (enabled === false) return;
    const { storage, clock } = this.#ctx;
    if (loopbackBlobServer && !dispatcherOptions.signedUrlProvider) {
      this.#blobServer = createLoopbackBlobServer({ storage, clock });
      await this.#blobServer.listen();
    }
    this.#dispatcher = createWebhookDispatcher({
      storage,
      clock,
      onError: this.#options.onError,
      ...dispatcherOptions,
      ...(this.#blobServer ? { signedUrlProvider: this.#blobServer.signedUrlProvider } : {}),
    });
    this.#dispatcher.start();
    const dispatcher = this.#dispatcher;
    this.#options.outbox.attachDispatcher(() => dispatcher.notify());
  }

  /**
   * Stops the workers: executing steps are aborted and their claimed work goes back to the
   * queue, to run again (same idempotency key) on the next start. Closes storage.
   */
  async stop(): Promise<void> {
    if (this.#state === 'stopped') return;
    if (this.#starting) await this.#starting.catch(() => undefined);
    this.#state = 'stopped';
    this.scheduler.stop();
    await this.#unsubscribe?.().catch(this.#options.onError);
    this.#stopping.abort(STOPPING);
    for (const abort of this.aborts.values()) abort.abort(STOPPING);
    const inflight = this.scheduler.inflightIds();
    await this.scheduler.whenIdle();
    if (inflight.length > 0) {
      await this.#ctx.storage.releaseWork(inflight, { owner: this.scheduler.owner });
    }
    this.#options.outbox.attachDispatcher(undefined);
    await this.#dispatcher?.stop();
    await this.#blobServer?.close();
    await this.#ctx.storage.close();
    this.#options.telemetry.stopped();
  }

  /** Resolves once no step is queued or running and no webhook is pending. */
  async idle(options?: { timeoutMs?: number }): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const timer =
        options?.timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              this.#idle.delete(done);
              reject(
                new EngineError(
                  EngineErrorCode.TIMEOUT,
                  `engine not idle within ${options.timeoutMs} ms`,
                ),
              );
            }, options.timeoutMs);
      const done = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
      this.#idle.add(done);
      this.#checkIdle();
    });
    await this.#dispatcher?.drain(
      options?.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
    );
  }

  #checkIdle(): void {
    if (this.#idle.size === 0 || this.scheduler.running > 0) return;
    void this.#ctx.storage.listWork().then((items) => {
      const now = isoNow(this.#ctx.clock);
      if (items.some((i) => i.availableAt <= now) || this.scheduler.running > 0) return;
      for (const resolve of this.#idle) resolve();
      this.#idle.clear();
    }, this.#options.onError);
  }

  /** Runs one work item the scheduler hands over: a workflow step, or a standalone run. */
  async #execute(item: WorkItem, ticket: WorkTicket): Promise<void> {
    if (isStandaloneItem(item)) {
      return runStandaloneItem(item, {
        store: this.standalone,
        executors: this.#options.executors,
        retry: this.#retry,
        attempt: this.#attempt,
        fences: this.#work.fences(ticket),
        leaseLost: () => ticket.leaseLost,
        onStorageError: this.#options.onError,
      });
    }
    try {
      await runWorkItem(item, {
        ctx: this.#ctx,
        store: this.store,
        executors: this.#options.executors,
        retry: this.#retry,
        attempt: this.#attempt,
        secretsOf: (state) => this.secrets.load(this.#ctx.storage, state.secretsRef),
        work: this.#work,
        ticket,
        onStorageError: this.#options.onError,
      });
    } catch (error) {
      await this.#work.failed(ticket, error, (enqueue) => this.#ctx.storage.commit({ enqueue }));
      throw error;
    }
  }

  /** After a run's commit: abort, publish, start reserved steps, wake the scheduler, resolve waiters. */
  #afterCommit(
    state: RunState,
    plan: WorkPlan,
    events: Parameters<EventOutbox['committed']>[0],
    deliveries: number,
    log: readonly RunEventInput[],
  ): void {
    // Before the reserved steps start: their spans open here, and their executors run in them.
    this.#options.telemetry.workflowRunCommitted(state, log);
    for (const id of plan.aborts) this.aborts.get(id)?.abort(new Error('step aborted by the run'));
    this.#options.outbox.committed(events, deliveries);
    this.#work.dispatch(plan);
    if (isSettledRunStatus(state.status)) this.settled.settle(state.id, state);
    if (this.scheduler.running === 0 && plan.enqueue.length === 0) this.#checkIdle();
  }
}
