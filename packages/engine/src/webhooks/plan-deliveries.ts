/**
 * Routing, the interface's "Events": which endpoints receive an event. Pure, so that the engine can add
 * the resulting outbox rows to the very commit that records the state change causing the event.
 *
 * - `workflow_run.*`: only endpoints subscribed to that workflow, for that event type; a WEBHOOK_RESPONSE
 *   step's `workflow_run.webhook_response` to every endpoint subscribed to the workflow.
 * - Everything else: endpoints whose global `enabledEvents` list the type, plus endpoints
 *   subscribed to the event's resource for that type (processor run-completion events exist at
 *   both levels). An endpoint matched both ways gets one delivery.
 */
import { createHash } from 'node:crypto';
import type { DeliveryWrite, StorageAdapter } from '@docflow/storage';
import {
  type EngineEvent,
  EVENT_ID_PREFIX,
  type EventResource,
  isWorkflowRunEventType,
  WEBHOOK_RESPONSE_EVENT_TYPE,
} from '../events/event-types.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import { type DeliveryTargets, loadDeliveryTargets } from './delivery-targets.ts';

/** Id prefix of webhook deliveries. */
export const WEBHOOK_DELIVERY_ID_PREFIX = 'whd_';

/** Options of {@link planDeliveries}. */
export interface PlanDeliveriesOptions extends DeliveryTargets {
  /** The resource the event is about; without it only global endpoints match. */
  readonly resource?: EventResource | undefined;
  /** When the deliveries become due (RFC 3339); default now. */
  readonly at?: string | undefined;
}

/**
 * A delivery id derived from the event and endpoint, so planning the same event twice yields the
 * same outbox rows rather than duplicates.
 */
export function deliveryId(eventId: string, endpointId: string): string {
  const digest = createHash('sha256').update(`${eventId}\u0000${endpointId}`).digest('hex');
  return `${WEBHOOK_DELIVERY_ID_PREFIX}${digest.slice(0, 32)}`;
}

/** The endpoint ids that receive `eventType` about `resource`, each once, in a stable order. */
export function routeEvent(
  eventType: string,
  targets: DeliveryTargets,
  resource?: EventResource,
): string[] {
  const out = new Set<string>();
  const existing = new Set(targets.endpoints.map((e) => e.id));
  if (!isWorkflowRunEventType(eventType)) {
    for (const endpoint of targets.endpoints) {
      if (endpoint.enabledEvents.includes(eventType)) out.add(endpoint.id);
    }
  }
  if (resource !== undefined) {
    for (const sub of targets.subscriptions) {
      if (
        sub.resourceType === resource.type &&
        sub.resourceId === resource.id &&
        (sub.enabledEvents.includes(eventType) ||
          (eventType === WEBHOOK_RESPONSE_EVENT_TYPE && sub.resourceType === 'workflow')) &&
        // A subscription whose endpoint was deleted concurrently is an orphan: skip it.
        existing.has(sub.webhookEndpointId)
      ) {
        out.add(sub.webhookEndpointId);
      }
    }
  }
  return [...out];
}

/**
 * The outbox rows for `event`: one pending delivery per receiving endpoint, due at `at`.
 *
 * @example
 * const deliveries = planDeliveries(event, { ...(await loadDeliveryTargets(storage)), resource: { type: 'workflow', id: workflowId } });
 * await storage.commit({ runs: [runWrite], deliveries });
 */
export function planDeliveries(
  event: EngineEvent,
  options: PlanDeliveriesOptions,
): DeliveryWrite[] {
  const at = options.at ?? new Date().toISOString();
  return routeEvent(event.eventType, options, options.resource).map((endpointId) => ({
    id: deliveryId(event.eventId, endpointId),
    endpointId,
    eventId: event.eventId,
    eventType: event.eventType,
    event: { eventId: event.eventId, eventType: event.eventType, payload: event.payload },
    status: 'pending',
    attempts: [],
    nextAttemptAt: at,
  }));
}

/** A new event object with a fresh `evt_` id. */
export function createEvent(
  ctx: Pick<EngineContext, 'newId'>,
  eventType: string,
  payload: EngineEvent['payload'],
): EngineEvent {
  return { eventId: ctx.newId(EVENT_ID_PREFIX), eventType, payload };
}

/**
 * Loads the routing targets (cached) and plans `event`'s deliveries: what the engine adds to the
 * commit of the state change that causes the event.
 */
export async function planEventDeliveries(
  ctx: Pick<EngineContext, 'storage' | 'nowIso'>,
  event: EngineEvent,
  resource?: EventResource,
): Promise<DeliveryWrite[]> {
  const targets = await loadDeliveryTargets(ctx.storage as StorageAdapter);
  return planDeliveries(event, { ...targets, resource, at: ctx.nowIso() });
}
