export type { Clock } from './clock.ts';
export { systemClock } from './clock.ts';
export type { Engine, EngineOptions } from './create-engine.ts';
export { createEngine } from './create-engine.ts';
export type {
  Classification,
  ClassifyStep,
  Condition,
  ConditionalStep,
  ConditionOperation,
  ExecutorLookup,
  ExtractStep,
  ParsedOperand,
  ProcessorReference,
  ProcessorResolution,
  ProcessorResolver,
  RuleValidationStep,
  SplitStep,
  StepDefinition,
  ValidateDefinitionOptions,
  ValidationRule,
  WorkflowDefinition,
  WorkflowGraph,
} from './definition/index.ts';
export {
  buildWorkflowGraph,
  CONDITION_OPERATIONS,
  DefinitionIssueCode,
  MERGE_ORDERS,
  parseOperand,
  validateWorkflowDefinition,
  workflowDefinitionSchema,
} from './definition/index.ts';
export type { ValidationIssue } from './errors.ts';
export { EngineError, EngineErrorCode, isEngineError, StepError } from './errors.ts';
export type { EngineEventListener } from './events/event-bus.ts';
export type { EngineEvent } from './events/event-types.ts';
export {
  EVENT_TYPES,
  GLOBAL_EVENT_TYPES,
  VALID_SUBSCRIPTION_EVENTS,
  WEBHOOK_RESPONSE_EVENT_TYPE,
} from './events/event-types.ts';
export type { DetectedFileType } from './files/detect-file-type.ts';
export { detectFileType } from './files/detect-file-type.ts';
export type { DownloadOptions } from './files/download-url.ts';
export type {
  AddressClass,
  PolicyFetch,
  PolicyFetchOptions,
  ResolveHost,
  UrlCheck,
  UrlPolicy,
  UrlPolicyOptions,
  UrlPurpose,
} from './net/index.ts';
export { checkUrl, classifyAddress, createPolicyFetch, urlPolicy } from './net/index.ts';
export type { EngineLogger, LogLevel } from './observability/engine-logger.ts';
export { TRACER_NAME } from './observability/run-telemetry.ts';
export { TELEMETRY_ATTRIBUTES } from './observability/telemetry-attributes.ts';
export type { FileResource, FilesService, UploadFileInput } from './resources/files.ts';
export type { ListResult, PageParams } from './resources/list-result.ts';
export type {
  BatchRunInput,
  CreateWorkflowRunBatchInput,
  CreateWorkflowRunInput,
  RunFileSource,
} from './resources/run-input.ts';
export type {
  ClassifyRunsService,
  ExtractRunsService,
  ListStandaloneRunsParams,
  ParseNowInput,
  ParseRunsService,
  SplitRunsService,
  StandaloneRunBatch,
  StandaloneRunsService,
} from './resources/standalone-runs.ts';
export type { WebhookDelivery } from './resources/webhook-deliveries.ts';
export type { CreatedWebhookEndpoint, WebhookEndpoint } from './resources/webhook-endpoints.ts';
export type { WebhookSubscription } from './resources/webhook-subscriptions.ts';
export type { ReviewInput, ReviewOutput } from './resources/workflow-run-review.ts';
export type { ListWorkflowRunsParams, WorkflowRunsService } from './resources/workflow-runs.ts';
export type {
  CreateWorkflowInput,
  UpdateWorkflowInput,
  Workflow,
  WorkflowsService,
  WorkflowVersion,
} from './resources/workflows.ts';
export type { RunStatus, StandaloneRunStatus, StepRunStatus } from './run/lifecycle.ts';
export { isFinalRunStatus, RUN_STATUSES, STEP_RUN_STATUSES } from './run/lifecycle.ts';
export type { StepRun, WorkflowRun } from './run/run-resource.ts';
export type { CreatedBy, WorkflowSummary, WorkflowVersionSummary } from './run/run-state.ts';
export type { RetryPolicy } from './runtime/retry-policy.ts';
export type { SchedulerOptions, StepTypeLimits } from './runtime/scheduler.ts';
export type {
  CreateClassifyRunBatchInput,
  CreateClassifyRunInput,
  CreateExtractRunBatchInput,
  CreateExtractRunInput,
  CreateParseRunBatchInput,
  CreateParseRunInput,
  CreateSplitRunBatchInput,
  CreateSplitRunInput,
  PackageSource,
  ProcessorReferenceInput,
  StandaloneBatchItem,
} from './standalone/standalone-input.ts';
export type { StandaloneKind } from './standalone/standalone-kinds.ts';
export type {
  ClassifyRun,
  ExtractRun,
  ParseRun,
  RunUsage,
  RunUsageBreakdownEntry,
  SplitRun,
  StandaloneRun,
} from './standalone/standalone-resource.ts';
export type {
  FileSummary,
  FileType,
  NewFile,
  StepContext,
  StepExecutor,
  StepFailure,
  StepFiles,
  StepInput,
  StepOutcome,
  StepSuccess,
  StepType,
  StepUsage,
} from './step-executor.ts';
export { defineStep, isStepFailure, STEP_TYPES } from './step-executor.ts';
export type {
  LoopbackBlobServer,
  SignedUrlProvider,
  VerifiedWebhook,
  VerifyWebhookOptions,
  WebhookDispatcherOptions,
  WebhookHeaderNames,
  WebhookHeaders,
} from './webhooks/index.ts';
export {
  createLoopbackBlobServer,
  DEFAULT_HEADER_WORD,
  DEFAULT_RETRY_SCHEDULE_MS,
  isWebhookVerificationError,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  WebhookVerificationErrorCode,
  webhookHeaderNames,
} from './webhooks/index.ts';
