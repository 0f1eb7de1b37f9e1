import { memoryStorage } from '@docflow/storage';
import { isoNow, systemClock } from './clock.ts';
import type { Engine, EngineOptions } from './engine.ts';
import { EngineError, EngineErrorCode } from './errors.ts';
import { EventBus } from './events/event-bus.ts';
import { EventOutbox } from './events/event-outbox.ts';
import { createDownloader } from './files/download-url.ts';
import type { EngineContext } from './internal/engine-context.ts';
import { newId } from './internal/ids.ts';
import { errorReporter } from './observability/error-reporter.ts';
import { RunTelemetry } from './observability/run-telemetry.ts';
import { createServices, type EngineServices } from './resources/engine-services.ts';
import { createProcessorResources } from './resources/processor-resources.ts';
import { parseNow } from './resources/standalone-runs.ts';
import { EngineRuntime } from './runtime/engine-runtime.ts';
import { type LifecycleGate, startedOnly } from './runtime/started-only.ts';
import type { StepExecutor, StepType } from './step-executor.ts';

export type { Engine, EngineOptions } from './engine.ts';

/** The executors by step type; two for one type are a configuration error. */
function executorsByType(steps: readonly StepExecutor[]): ReadonlyMap<StepType, StepExecutor> {
  const executors = new Map<StepType, StepExecutor>();
  for (const executor of steps) {
    if (executors.has(executor.type)) {
      throw new EngineError(
        EngineErrorCode.INVALID_CONFIGURATION,
        `two executors for step type ${executor.type}`,
      );
    }
    executors.set(executor.type, executor);
  }
  return executors;
}

/** Every service, with its methods gated by the engine's lifecycle. */
function gated(services: EngineServices, gate: LifecycleGate): EngineServices {
  return {
    files: startedOnly(services.files, gate),
    workflows: startedOnly(services.workflows, gate),
    workflowRuns: startedOnly(services.workflowRuns, gate),
    parseRuns: startedOnly(services.parseRuns, gate),
    extractRuns: startedOnly(services.extractRuns, gate),
    classifyRuns: startedOnly(services.classifyRuns, gate),
    splitRuns: startedOnly(services.splitRuns, gate),
    extractors: startedOnly(services.extractors, gate),
    classifiers: startedOnly(services.classifiers, gate),
    splitters: startedOnly(services.splitters, gate),
    webhookEndpoints: startedOnly(services.webhookEndpoints, gate),
    webhookSubscriptions: startedOnly(services.webhookSubscriptions, gate),
    webhookDeliveries: startedOnly(services.webhookDeliveries, gate),
  };
}

/**
 * Creates an engine. With no options: memory storage, control-flow steps only. The engine is a
 * list of named parts handed to each other: the context services share, the event outbox, the
 * processor resources, the runtime (scheduler, run store, recovery, webhooks) and the resource
 * services over them.
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
  const onError = errorReporter(options.onError, options.logger);
  const telemetry = new RunTelemetry({ logger: options.logger });
  const executors = executorsByType(options.steps ?? []);
  const bus = new EventBus(onError);
  const nowIso = () => isoNow(clock);
  const outbox = new EventOutbox({ storage, newId, nowIso }, bus);
  const ctx: EngineContext = { storage, clock, newId, nowIso, events: outbox };
  const processors = createProcessorResources(ctx, {
    createdBy: options.createdBy ?? null,
    ...(options.generateSchema ? { generateSchema: options.generateSchema } : {}),
  });
  const runtime = new EngineRuntime({
    ctx,
    outbox,
    executors,
    processors: processors.resolution,
    scheduling: options.scheduling,
    retry: options.retry,
    stepTimeoutMs: options.stepTimeoutMs,
    secretKey: options.secretKey,
    webhooks: options.webhooks,
    random: options.random,
    onError,
    telemetry,
  });
  const services = gated(
    createServices({
      ctx,
      runtime,
      outbox,
      executors,
      processors,
      createdBy: options.createdBy ?? null,
      download: createDownloader(options.downloads),
    }),
    runtime,
  );
  return {
    ...services,
    parse: (input) => parseNow(services.parseRuns, input),
    storage,
    start: () => runtime.start(),
    stop: () => runtime.stop(),
    on: (eventType, listener) => bus.on(eventType, listener),
    idle: (idleOptions) => runtime.idle(idleOptions),
  };
}
