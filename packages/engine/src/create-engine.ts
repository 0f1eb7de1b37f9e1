import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import {
  type DeliveryWrite,
  type JsonObject,
  memoryStorage,
  type StorageAdapter,
} from '@docflow/storage';
import { type Clock, isoNow, systemClock } from './clock.ts';
import { configValidator } from './definition/check-executors.ts';
import { validateWorkflowDefinition } from './definition/validate-definition.ts';
import { EngineError, EngineErrorCode } from './errors.ts';
import { type EngineEventListener, EventBus } from './events/event-bus.ts';
import type { EngineEvent } from './events/event-types.ts';
import type { EngineContext, EventSink } from './internal/engine-context.ts';
import { newId } from './internal/ids.ts';
import { createFilesService, type FilesService } from './resources/files.ts';
import { createProcessorResources } from './resources/processor-resources.ts';
import type { GenerateSchema, ProcessorsService } from './resources/processors.ts';
import { createWebhookDeliveriesService } from './resources/webhook-deliveries.ts';
import { createWebhookEndpointsService } from './resources/webhook-endpoints.ts';
import { createWebhookSubscriptionsService } from './resources/webhook-subscriptions.ts';
import { createWorkflowRunsService, type WorkflowRunsService } from './resources/workflow-runs.ts';
import { createWorkflowsService, type WorkflowsService } from './resources/workflows.ts';
import { isSettledRunStatus } from './run/lifecycle.ts';
import { toStepRun, toWorkflowRun } from './run/run-resource.ts';
import type { CreatedBy, RunState } from './run/run-state.ts';
import type { ControlResult, TransitionContext } from './run/run-transitions.ts';
import { evaluateControlStep } from './runtime/control-steps.ts';
import { requeueExecutingSteps } from './runtime/requeue-steps.ts';
import { RunStore } from './runtime/run-store.ts';
import { Scheduler, type SchedulerOptions, type Slot } from './runtime/scheduler.ts';
import { SecretBox } from './runtime/secrets.ts';
import type { StepAbort } from './runtime/step-abort.ts';
import {
  DEFAULT_RETRY_POLICY,
  type RetryPolicy,
  runWorkItem,
  STOPPING,
} from './runtime/step-runner.ts';
import {
  type StandaloneRun,
  StandaloneRuns,
  type StandaloneRunsService,
} from './standalone/standalone-runs.ts';
import type { StepExecutor, StepType } from './step-executor.ts';
import { ajvErrorsToIssues } from './validation/ajv-issues.ts';
import { loadDeliveryTargets } from './webhooks/delivery-targets.ts';
import {
  createWebhookDispatcher,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from './webhooks/dispatcher.ts';
import {
  createLoopbackBlobServer,
  type LoopbackBlobServer,
} from './webhooks/loopback-blob-server.ts';
import { createEvent, deliveryId, planEventDeliveries } from './webhooks/plan-deliveries.ts';

/** Unfinished runs that `start()` reads and keeps for the claims that follow, at most. */
const RECOVERED_RUNS_KEPT = 10_000;

/** Options of {@link createEngine}. Every field is optional. */
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
  /** Default retry policy of executor steps. */
  readonly retry?: Partial<RetryPolicy>;
  /** Key that run secrets are encrypted with at rest; without one, secrets do not survive a restart. */
  readonly secretKey?: string | Uint8Array;
  /** Webhook dispatcher settings (retry schedule, timeouts, signed URLs). */
  readonly webhooks?: Omit<WebhookDispatcherOptions, 'storage' | 'clock'> & {
    /** Set false to not send webhooks from this engine (default true). */
    readonly enabled?: boolean;
    /**
     * Start a loopback HTTP server (127.0.0.1, a free port) that serves signed-URL payloads, for
     * endpoints with `deliveryFormat: 'signed_url'` when no `signedUrlProvider` is given.
     */
    readonly loopbackBlobServer?: boolean;
  };
  /** Attribution of created resources (SPEC.md CreatedBy); default null. */
  readonly createdBy?: CreatedBy | null;
  /** Told about failures the engine survives (a listener threw, storage hiccup in a loop). */
  readonly onError?: (error: unknown) => void;
  /** Random source in [0, 1) for retry jitter. */
  readonly random?: () => number;
}

/** The docflow engine: resources mirror SPEC.md as method calls. */
export interface Engine {
  readonly files: FilesService;
  readonly workflows: Omit<WorkflowsService, never>;
  readonly workflowRuns: WorkflowRunsService;
  readonly webhookEndpoints: ReturnType<typeof createWebhookEndpointsService>;
  readonly webhookSubscriptions: ReturnType<typeof createWebhookSubscriptionsService>;
  readonly webhookDeliveries: ReturnType<typeof createWebhookDeliveriesService>;
  /** SPEC.md parse runs (create, get, list, cancel, batch), run by the PARSE executor. */
  readonly parseRuns: StandaloneRunsService;
  readonly extractRuns: StandaloneRunsService;
  readonly classifyRuns: StandaloneRunsService;
  readonly splitRuns: StandaloneRunsService;
  /** SPEC.md extractors (`ex_`): drafts and published versions. */
  readonly extractors: ProcessorsService;
  /** SPEC.md classifiers (`cl_`). */
  readonly classifiers: ProcessorsService;
  /** SPEC.md splitters (`spl_`). */
  readonly splitters: ProcessorsService;
  /**
   * Parses a file synchronously (SPEC.md POST /parse): creates a parse run and waits for it,
   * at most five minutes. For onboarding and tests; production code uses `parseRuns`.
   */
  parse(input: {
    file: { id: string } | { text: string; name?: string };
    config?: JsonObject;
  }): Promise<StandaloneRun>;
  /** The storage the engine persists to. */
  readonly storage: StorageAdapter;
  /** Opens storage, recovers unfinished runs and starts workers. Idempotent. */
  start(): Promise<void>;
  /**
   * Stops workers: executors in flight are aborted and their work returns to the queue, to run
   * again (same idempotency key) on the next start. Closes the storage.
   */
  stop(): Promise<void>;
  /** Listens to SPEC.md event types (`"*"` for all); returns an unsubscribe function. */
  on(eventType: string, listener: EngineEventListener): () => void;
  /** Resolves once no step is queued or running and no webhook is pending (for tests and scripts). */
  idle(options?: { timeoutMs?: number }): Promise<void>;
}

async function downloadUrl(
  url: string,
  signal?: AbortSignal,
): Promise<{ name: string; data: Uint8Array }> {
  const response = await fetch(url, { signal: signal ?? AbortSignal.timeout(60_000) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const data = new Uint8Array(await response.arrayBuffer());
  const name = decodeURIComponent(basename(new URL(url).pathname)) || 'download';
  return { name, data };
}

/**
 * Creates an engine. With no options: memory storage, control-flow steps only.
 *
 * @example
 * const engine = createEngine({ storage: sqliteStorage({ path: 'docflow.db' }), steps: builtinSteps() });
 * await engine.start();
 * const run = await engine.workflowRuns.create({ workflow: { id }, file: { id: fileId } });
 * const done = await engine.workflowRuns.waitFor(run.id);
 */
export function createEngine(options: EngineOptions = {}): Engine {
  const storage = options.storage ?? memoryStorage();
  const clock = options.clock ?? systemClock;
  const onError =
    options.onError ??
    ((error: unknown) => {
      console.error('[docflow]', error);
    });
  const executors = new Map<StepType, StepExecutor>();
  for (const executor of options.steps ?? []) {
    if (executors.has(executor.type)) {
      throw new EngineError(
        EngineErrorCode.INVALID_CONFIGURATION,
        `two executors for step type ${executor.type}`,
      );
    }
    executors.set(executor.type, executor);
  }
  const bus = new EventBus((error) => onError(error));
  const webhooksEnabled = options.webhooks?.enabled ?? true;
  let dispatcher: WebhookDispatcher | undefined;

  const events: EventSink = {
    async prepare(eventType, payload, resource) {
      const event = createEvent(ctx, eventType, payload);
      const deliveries = await planEventDeliveries(ctx, event, resource);
      return { event, deliveries };
    },
    publish(list: readonly EngineEvent[]) {
      for (const event of list) bus.emit(event);
      if (list.length > 0) dispatcher?.notify();
    },
  };
  const ctx: EngineContext = {
    storage,
    clock,
    newId,
    nowIso: () => isoNow(clock),
    events,
  };

  const webhookEndpoints = createWebhookEndpointsService(ctx);
  const processors = createProcessorResources(ctx, {
    createdBy: options.createdBy ?? null,
    ...(options.generateSchema ? { generateSchema: options.generateSchema } : {}),
  });
  const workflows = createWorkflowsService(ctx, {
    validate: async (definition, stage) =>
      validateWorkflowDefinition(definition, {
        executors,
        stage,
        processors: await processors.resolution.resolverFor(definition),
      }),
    createdBy: options.createdBy ?? null,
    async createStepEndpoint(url, name) {
      const endpoint = await webhookEndpoints.create({ url, name });
      return { id: endpoint.id, url: endpoint.url, signingSecret: endpoint.signingSecret };
    },
  });

  const aborts = new Map<string, StepAbort>();
  const stopping = new AbortController();
  const settledWaiters = new Map<string, Set<(state: RunState) => void>>();
  const idleWaiters = new Set<() => void>();
  const secretBox = new SecretBox(options.secretKey);

  const transitionContext = (
    graph: TransitionContext['graph'],
    now: string,
    handoff?: Slot,
  ): TransitionContext => ({
    graph,
    now,
    newId,
    evaluateControl: (state, sr, step, fx): Promise<ControlResult> =>
      evaluateControlStep({ ctx, store, state, stepRun: sr, step, fx }),
    // The finishing item's slot goes to the first step this mutation starts, if any: a saturated
    // engine keeps a run's next step on the fast path instead of queueing it behind itself.
    reserve: (stepType, priority) => scheduler.reserve(`step:${stepType}`, priority, handoff),
  });

  const store: RunStore = new RunStore({
    ctx,
    loadDefinition: (id) => workflows.loadDefinition(id),
    transitionContext,
    async prepareEvents(state, pending) {
      const out: EngineEvent[] = [];
      const deliveries: DeliveryWrite[] = [];
      // With no endpoint anywhere and nobody listening, an event has no audience: building its
      // payload (a whole run) would be the hot path's biggest cost for nothing.
      const targets = await loadDeliveryTargets(storage);
      const routed = targets.endpoints.length > 0;
      for (const p of pending) {
        if (!routed && p.endpointId === undefined && !bus.has(p.eventType)) continue;
        const payload =
          p.payload ??
          (p.stepRunId === undefined
            ? (toWorkflowRun(state) as unknown as JsonObject)
            : (toStepRun(
                state,
                state.stepRuns.find((s) => s.id === p.stepRunId) ?? (state.stepRuns[0] as never),
                undefined,
              ) as unknown as JsonObject));
        if (p.endpointId !== undefined) {
          const event = createEvent(ctx, p.eventType, payload);
          out.push(event);
          deliveries.push({
            id: deliveryId(event.eventId, p.endpointId),
            endpointId: p.endpointId,
            eventId: event.eventId,
            eventType: event.eventType,
            event: { eventId: event.eventId, eventType: event.eventType, payload },
            status: 'pending',
            attempts: [],
            nextAttemptAt: ctx.nowIso(),
          });
          continue;
        }
        const prepared = await events.prepare(p.eventType, payload, {
          type: 'workflow',
          id: state.workflow.id,
        });
        out.push(prepared.event);
        deliveries.push(...prepared.deliveries);
      }
      return { events: out, deliveries };
    },
    abandon(fx) {
      for (const item of fx.dispatch) {
        if (item.lease) scheduler.cancelReservation(item.kind, item.lease);
      }
    },
    afterCommit(state, fx, committed, deliveriesCommitted) {
      for (const id of fx.aborts) aborts.get(id)?.abort(new Error('step aborted by the run'));
      for (const event of committed) bus.emit(event);
      // Only wake the dispatcher when there is something to send: a claim is a write.
      if (deliveriesCommitted > 0) dispatcher?.notify();
      for (const item of fx.dispatch) {
        scheduler.runReserved({
          id: item.id,
          runId: item.runId,
          kind: item.kind,
          priority: item.priority,
          seq: 0,
          availableAt: item.availableAt ?? ctx.nowIso(),
          payload: item.payload,
          attempts: 1,
          leaseOwner: scheduler.owner,
        });
      }
      if (fx.enqueue.length > 0) scheduler.notifyEnqueued(fx.enqueue);
      if (isSettledRunStatus(state.status)) {
        for (const waiter of settledWaiters.get(state.id) ?? []) waiter(state);
      }
      if (scheduler.running === 0 && fx.enqueue.length === 0) checkIdle();
    },
  });

  const retry: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...(options.retry ?? {}) };
  const random = options.random ?? Math.random;
  const scheduler = new Scheduler({
    storage,
    clock,
    owner: `engine-${randomBytes(6).toString('hex')}`,
    onError,
    ...(options.scheduling ? { scheduling: options.scheduling } : {}),
    execute: (item, slot, release) =>
      StandaloneRuns.owns(item)
        ? standalone.execute(item)
        : runWorkItem(item, {
            ctx,
            store,
            executors,
            retry,
            aborts,
            stopSignal: stopping.signal,
            random,
            resolveProcessor: (kind, ref) => processors.resolution.resolveProcessor(kind, ref),
            async secretsOf(state) {
              if (!state.secretsRef) return {};
              const sealed = await storage.blobs.get(state.secretsRef);
              return sealed ? secretBox.open(sealed) : {};
            },
            slot,
            release,
            retryAt: () => new Date(clock.now().getTime() + scheduler.leaseMs).toISOString(),
          }),
    onDrained: () => checkIdle(),
  });

  function checkIdle(): void {
    if (idleWaiters.size === 0 || scheduler.running > 0) return;
    void storage.listWork().then((items) => {
      const now = isoNow(clock);
      if (items.some((i) => i.availableAt <= now) || scheduler.running > 0) return;
      for (const resolve of idleWaiters) resolve();
      idleWaiters.clear();
    }, onError);
  }

  const standalone = new StandaloneRuns({
    ctx,
    executors,
    notifyEnqueued: () => scheduler.notifyEnqueued(),
    resolveProcessor: (kind: string, ref: { id: string; version: string }) =>
      processors.resolution.resolveProcessor(kind, ref),
    checkConfig(stepType, config, base) {
      const schema = executors.get(stepType)?.configSchema;
      if (!schema) return [];
      const validate = configValidator(schema, stepType);
      return validate(config)
        ? []
        : ajvErrorsToIssues(validate.errors, { code: 'CONFIG_INVALID', basePath: base });
    },
  });
  const parseRuns = standalone.service('parse_run');

  const workflowRuns = createWorkflowRunsService({
    ctx,
    store,
    resolve: (ref, path) => workflows.resolve(ref, path),
    aborts,
    async storeSecrets(runId, secrets) {
      const key = `secrets/${runId}`;
      await storage.blobs.put(key, secretBox.seal(secrets));
      return key;
    },
    onSettled(runId, listener) {
      let set = settledWaiters.get(runId);
      if (!set) {
        set = new Set();
        settledWaiters.set(runId, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) settledWaiters.delete(runId);
      };
    },
    download: downloadUrl,
  });

  let state: 'new' | 'starting' | 'started' | 'stopped' = 'new';
  let starting: Promise<void> | undefined;

  const { enabled: _enabled, loopbackBlobServer, ...dispatcherOptions } = options.webhooks ?? {};
  let blobServer: LoopbackBlobServer | undefined;

  /** Resource methods work only between `start()` and `stop()`. */
  const started = <T extends object>(service: T): T =>
    new Proxy(service, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (state !== 'started') {
            return Promise.reject(
              new EngineError(
                EngineErrorCode.NOT_STARTED,
                state === 'stopped' ? 'the engine was stopped' : 'call engine.start() first',
              ),
            );
          }
          return value.apply(target, args);
        };
      },
    });

  return {
    files: started(createFilesService(ctx)),
    workflows: started(workflows),
    workflowRuns: started(workflowRuns),
    webhookEndpoints: started(webhookEndpoints),
    webhookSubscriptions: started(createWebhookSubscriptionsService(ctx)),
    webhookDeliveries: started(
      createWebhookDeliveriesService(ctx, { notify: () => dispatcher?.notify() }),
    ),
    parseRuns: started(parseRuns),
    extractRuns: started(standalone.service('extract_run')),
    classifyRuns: started(standalone.service('classify_run')),
    splitRuns: started(standalone.service('split_run')),
    extractors: started(processors.extractors),
    classifiers: started(processors.classifiers),
    splitters: started(processors.splitters),
    async parse(input) {
      const run = await parseRuns.create({
        file: input.file,
        ...(input.config ? { config: input.config } : {}),
      });
      return parseRuns.waitFor(run.id, { timeoutMs: 5 * 60_000 });
    },
    storage,
    start() {
      if (state === 'started') return Promise.resolve();
      if (state === 'stopped') {
        return Promise.reject(
          new EngineError(
            EngineErrorCode.INVALID_STATE,
            'a stopped engine cannot start again; create a new one',
          ),
        );
      }
      starting ??= (async () => {
        state = 'starting';
        await storage.open();
        // One writer per database: claims left by a previous process are stale. Give them back now
        // rather than waiting for their leases to expire.
        const stale = (await storage.listWork()).filter((w) => w.leaseOwner !== undefined);
        const byOwner = new Map<string, string[]>();
        for (const w of stale)
          byOwner.set(w.leaseOwner as string, [
            ...(byOwner.get(w.leaseOwner as string) ?? []),
            w.id,
          ]);
        for (const [owner, ids] of byOwner) await storage.releaseWork(ids, { owner });
        // Steps the previous process ran on reserved slots have no queue row: queue them again.
        // The runs it reads are kept (up to a bound): the claims that follow would read them again.
        await requeueExecutingSteps(storage, isoNow(clock), {
          seen: (run) => store.remember(run, RECOVERED_RUNS_KEPT),
        });
        scheduler.start();
        if (webhooksEnabled) {
          if (loopbackBlobServer && !dispatcherOptions.signedUrlProvider) {
            blobServer = createLoopbackBlobServer({ storage, clock });
            await blobServer.listen();
          }
          dispatcher = createWebhookDispatcher({
            storage,
            clock,
            onError,
            ...dispatcherOptions,
            ...(blobServer ? { signedUrlProvider: blobServer.signedUrlProvider } : {}),
          });
          dispatcher.start();
        }
        state = 'started';
      })();
      return starting;
    },
    async stop() {
      if (state === 'stopped') return;
      if (starting) await starting.catch(() => undefined);
      state = 'stopped';
      scheduler.stop();
      stopping.abort(STOPPING);
      for (const abort of aborts.values()) abort.abort(STOPPING);
      standalone.stopAll();
      const inflight = scheduler.inflightIds();
      await scheduler.whenIdle();
      if (inflight.length > 0) await storage.releaseWork(inflight, { owner: scheduler.owner });
      await dispatcher?.stop();
      await blobServer?.close();
      await storage.close();
    },
    on: (eventType, listener) => bus.on(eventType, listener),
    async idle(opts) {
      await new Promise<void>((resolve, reject) => {
        const timer =
          opts?.timeoutMs === undefined
            ? undefined
            : setTimeout(() => {
                idleWaiters.delete(done);
                reject(
                  new EngineError(
                    EngineErrorCode.TIMEOUT,
                    `engine not idle within ${opts.timeoutMs} ms`,
                  ),
                );
              }, opts.timeoutMs);
        const done = () => {
          if (timer) clearTimeout(timer);
          resolve();
        };
        idleWaiters.add(done);
        checkIdle();
      });
      await dispatcher?.drain(opts?.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs });
    },
  };
}
