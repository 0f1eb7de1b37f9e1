/**
 * Events and signed webhooks: routing, the outbox dispatcher, the three webhook services and the
 * receiver's `verifyWebhook`. `src/index.ts` re-exports the public part; `createEngine` wires the
 * rest over its context.
 */
export type {
  EngineEvent,
  EventGroup,
  EventResource,
  EventType,
  SubscriptionResourceType,
} from '../events/event-types.ts';
export {
  EVENT_GROUPS,
  EVENT_ID_PREFIX,
  EVENT_TYPES,
  GLOBAL_EVENT_TYPES,
  isEventType,
  isGlobalEventType,
  isWorkflowRunEventType,
  SUBSCRIPTION_RESOURCE_TYPES,
  VALID_SUBSCRIPTION_EVENTS,
  WEBHOOK_RESPONSE_EVENT_TYPE,
  WORKFLOW_RUN_EVENT_TYPES,
} from '../events/event-types.ts';
export type {
  DeliveryTargets,
  WebhookEndpointTarget,
  WebhookSubscriptionTarget,
} from './delivery-targets.ts';
export { invalidateDeliveryTargets, loadDeliveryTargets } from './delivery-targets.ts';
export type { DrainOptions, WebhookDispatcher, WebhookDispatcherOptions } from './dispatcher.ts';
export { createWebhookDispatcher } from './dispatcher.ts';
export type { LoopbackBlobServer, LoopbackBlobServerOptions } from './loopback-blob-server.ts';
export { createLoopbackBlobServer } from './loopback-blob-server.ts';
export type { PlanDeliveriesOptions } from './plan-deliveries.ts';
export {
  createEvent,
  deliveryId,
  planDeliveries,
  planEventDeliveries,
  routeEvent,
  WEBHOOK_DELIVERY_ID_PREFIX,
} from './plan-deliveries.ts';
export type { AttemptOutcome } from './retry-policy.ts';
export {
  classifyStatus,
  DEFAULT_RETRY_JITTER,
  DEFAULT_RETRY_SCHEDULE_MS,
  MANUAL_RETRY_MARKER,
  parseRetryAfter,
} from './retry-policy.ts';
export type {
  RawBody,
  VerifiedWebhook,
  VerifyWebhookOptions,
  WebhookHeaderNames,
  WebhookHeaders,
} from './sign.ts';
export {
  API_VERSION_HEADER,
  DEFAULT_HEADER_WORD,
  DEFAULT_TOLERANCE_SECONDS,
  isWebhookVerificationError,
  SIGNATURE_HEADER,
  signWebhook,
  TIMESTAMP_HEADER,
  verifyWebhook,
  WebhookVerificationError,
  WebhookVerificationErrorCode,
  webhookHeaderNames,
} from './sign.ts';
export type { SignedUrlContext, SignedUrlProvider } from './signed-url-provider.ts';
export { SIGNED_URL_TTL_MS } from './signed-url-provider.ts';
export type { StoredWebhookEndpoint, WebhookDeliveryFormat } from './stored-endpoint.ts';
export { toStoredWebhookEndpoint } from './stored-endpoint.ts';
