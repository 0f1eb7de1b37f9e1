import type { CreatedBy } from '../created-by.ts';
import { validateWorkflowDefinition } from '../definition/validate-definition.ts';
import type { EventOutbox } from '../events/event-outbox.ts';
import { FileDeletions } from '../files/file-deletions.ts';
import type { Download } from '../files/file-sources.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import type { EngineRuntime } from '../runtime/engine-runtime.ts';
import type { StepExecutor, StepType } from '../step-executor.ts';
import { createFilesService, type FilesService } from './files.ts';
import type { ProcessorResources } from './processor-resources.ts';
import type { ProcessorsService } from './processors.ts';
import {
  type ClassifyRunsService,
  createStandaloneRunsServices,
  type ExtractRunsService,
  type ParseRunsService,
  type SplitRunsService,
} from './standalone-runs.ts';
import {
  createWebhookDeliveriesService,
  type WebhookDeliveriesService,
} from './webhook-deliveries.ts';
import {
  createWebhookEndpointsService,
  type WebhookEndpointsService,
} from './webhook-endpoints.ts';
import {
  createWebhookSubscriptionsService,
  type WebhookSubscriptionsService,
} from './webhook-subscriptions.ts';
import { createWorkflowRunsService, type WorkflowRunsService } from './workflow-runs.ts';
import { createWorkflowsService, type WorkflowsService } from './workflows.ts';

/** The engine's resource services: the interface's resources as method calls. */
export interface EngineServices {
  readonly files: FilesService;
  readonly workflows: WorkflowsService;
  readonly workflowRuns: WorkflowRunsService;
  readonly parseRuns: ParseRunsService;
  readonly extractRuns: ExtractRunsService;
  readonly classifyRuns: ClassifyRunsService;
  readonly splitRuns: SplitRunsService;
  readonly extractors: ProcessorsService;
  readonly classifiers: ProcessorsService;
  readonly splitters: ProcessorsService;
  readonly webhookEndpoints: WebhookEndpointsService;
  readonly webhookSubscriptions: WebhookSubscriptionsService;
  readonly webhookDeliveries: WebhookDeliveriesService;
}

/** What the services are built over. */
export interface EngineServicesDependencies {
  readonly ctx: EngineContext;
  readonly runtime: EngineRuntime;
  readonly outbox: EventOutbox;
  readonly executors: ReadonlyMap<StepType, StepExecutor>;
  /** The processor services, built first: the runtime resolves saved processors through them. */
  readonly processors: ProcessorResources;
  /** Attribution of created resources (the interface's CreatedBy). */
  readonly createdBy: CreatedBy | null;
  /** Downloads URL file sources (under the document URL policy). */
  readonly download: Download;
}

/**
 * Builds every resource service of an engine, in the one place where they are wired to each
 * other and to the runtime.
 */
export function createServices(deps: EngineServicesDependencies): EngineServices {
  const { ctx, runtime, processors, executors } = deps;
  const webhookEndpoints = createWebhookEndpointsService(ctx);
  const workflows = createWorkflowsService(ctx, {
    validate: async (definition, stage) =>
      validateWorkflowDefinition(definition, {
        executors,
        stage,
        processors: await processors.resolution.resolverFor(definition),
      }),
    createdBy: deps.createdBy,
    async createStepEndpoint(url, name) {
      const endpoint = await webhookEndpoints.create({ url, name });
      return { id: endpoint.id, url: endpoint.url, signingSecret: endpoint.signingSecret };
    },
  });
  const fileDeletions = new FileDeletions();
  const workflowRuns = createWorkflowRunsService({
    ctx,
    fileDeletions,
    store: runtime.store,
    resolve: (ref, path) => workflows.resolve(ref, path),
    aborts: runtime.aborts,
    secrets: runtime.secrets,
    settled: runtime.settled,
    download: deps.download,
  });
  return {
    files: createFilesService(ctx, fileDeletions),
    workflows,
    workflowRuns,
    ...createStandaloneRunsServices({
      ctx,
      store: runtime.standalone,
      finished: runtime.finished,
      executors,
      processors: processors.resolution,
      download: deps.download,
    }),
    extractors: processors.extractors,
    classifiers: processors.classifiers,
    splitters: processors.splitters,
    webhookEndpoints,
    webhookSubscriptions: createWebhookSubscriptionsService(ctx),
    webhookDeliveries: createWebhookDeliveriesService(ctx, {
      notify: () => deps.outbox.wakeDispatcher(),
    }),
  };
}
