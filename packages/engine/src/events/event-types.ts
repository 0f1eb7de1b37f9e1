/**
 * The event types of the interface ("Events"), as data. Routing (which endpoint gets which event) is
 * derived from these tables and nothing else, so that adding an event type is a one-line change.
 */
import type { JsonObject } from '@docflow/storage';

/** Event types grouped as in the interface's "Event types" table. */
export const EVENT_GROUPS = {
  /** Delivered only through workflow subscriptions. */
  workflowRun: [
    'workflow_run.completed',
    'workflow_run.failed',
    'workflow_run.needs_review',
    'workflow_run.rejected',
    'workflow_run.cancelled',
    'workflow_run.step_run.processed',
  ],
  workflow: ['workflow.created', 'workflow.deployed', 'workflow.deleted'],
  extractRun: ['extract_run.processed', 'extract_run.failed'],
  classifyRun: ['classify_run.processed', 'classify_run.failed'],
  splitRun: ['split_run.processed', 'split_run.failed'],
  batchProcessorRun: ['batch_processor_run.processed', 'batch_processor_run.failed'],
  batchParseRun: ['batch_parse_run.processed', 'batch_parse_run.failed'],
  parseRun: ['parse_run.processed', 'parse_run.failed'],
  editRun: ['edit_run.processed', 'edit_run.failed'],
  extractor: [
    'extractor.created',
    'extractor.updated',
    'extractor.deleted',
    'extractor.draft.updated',
    'extractor.version.published',
  ],
  classifier: [
    'classifier.created',
    'classifier.updated',
    'classifier.deleted',
    'classifier.draft.updated',
    'classifier.version.published',
  ],
  splitter: [
    'splitter.created',
    'splitter.updated',
    'splitter.deleted',
    'splitter.draft.updated',
    'splitter.version.published',
  ],
} as const;

/** A group name of {@link EVENT_GROUPS}. */
export type EventGroup = keyof typeof EVENT_GROUPS;

/** An event type named by the interface. */
export type EventType = (typeof EVENT_GROUPS)[EventGroup][number];

/** Every event type of the interface, in table order. */
export const EVENT_TYPES: readonly EventType[] = Object.values(EVENT_GROUPS).flat();

/** Event types delivered only through workflow subscriptions (`workflow_run.*`). */
export const WORKFLOW_RUN_EVENT_TYPES: readonly EventType[] = EVENT_GROUPS.workflowRun;

/**
 * Event types an endpoint may list in its own `enabledEvents`: everything except
 * `workflow_run.*`.
 */
export const GLOBAL_EVENT_TYPES: readonly EventType[] = EVENT_TYPES.filter(
  (type) => !type.startsWith('workflow_run.'),
);

/** The resource types a subscription can bind an endpoint to. */
export const SUBSCRIPTION_RESOURCE_TYPES = [
  'extractor',
  'classifier',
  'splitter',
  'workflow',
] as const;

/** A subscription's `resourceType`. */
export type SubscriptionResourceType = (typeof SUBSCRIPTION_RESOURCE_TYPES)[number];

/** Valid `enabledEvents` per subscription `resourceType`, exactly the interface's table. */
export const VALID_SUBSCRIPTION_EVENTS = {
  extractor: [
    'extract_run.processed',
    'extract_run.failed',
    'batch_processor_run.processed',
    'batch_processor_run.failed',
  ],
  classifier: [
    'classify_run.processed',
    'classify_run.failed',
    'batch_processor_run.processed',
    'batch_processor_run.failed',
  ],
  splitter: [
    'split_run.processed',
    'split_run.failed',
    'batch_processor_run.processed',
    'batch_processor_run.failed',
  ],
  workflow: EVENT_GROUPS.workflowRun,
} as const satisfies Record<SubscriptionResourceType, readonly EventType[]>;

const eventTypeSet: ReadonlySet<string> = new Set(EVENT_TYPES);
const globalEventTypeSet: ReadonlySet<string> = new Set(GLOBAL_EVENT_TYPES);

/** True when `value` is an event type of the interface. */
export function isEventType(value: string): value is EventType {
  return eventTypeSet.has(value);
}

/** True when `value` may appear in an endpoint's `enabledEvents`. */
export function isGlobalEventType(value: string): value is EventType {
  return globalEventTypeSet.has(value);
}

/**
 * True for event types that only workflow subscriptions receive. Decided by prefix rather than
 * by the table so that a future `workflow_run.*` type is never leaked to global endpoints.
 */
export function isWorkflowRunEventType(value: string): boolean {
  return value.startsWith('workflow_run.');
}

/**
 * The event object of the interface: what a webhook request's body carries (JSON delivery) and what
 * in-process listeners receive. Listeners must tolerate unfamiliar `eventType`s.
 */
export interface EngineEvent {
  /** Unique; receivers deduplicate by it. Prefix `evt_`. */
  readonly eventId: string;
  readonly eventType: string;
  /** The relevant object (a run, a step run, a workflow, …). */
  readonly payload: JsonObject;
}

/**
 * docflow's one event type beyond the interface: what a WEBHOOK_RESPONSE step sends (the path's
 * result, payload `{ workflowRunId, stepName, body }`). It goes to every endpoint subscribed to
 * the workflow, whatever the subscription's `enabledEvents`: adding the step to a workflow is the
 * opt-in. Not in {@link EVENT_TYPES}, so it cannot be listed in `enabledEvents`.
 */
export const WEBHOOK_RESPONSE_EVENT_TYPE = 'workflow_run.webhook_response';

/** The id prefix of {@link EngineEvent.eventId}. */
export const EVENT_ID_PREFIX = 'evt_';

/** The resource an event is about, for resource-scoped webhook subscriptions. */
export interface EventResource {
  /** `workflow` for `workflow_run.*`; `extractor`, `classifier` or `splitter` for processor runs. */
  readonly type: SubscriptionResourceType;
  readonly id: string;
}
