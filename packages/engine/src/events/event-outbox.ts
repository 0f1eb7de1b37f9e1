import type { DeliveryWrite, JsonObject } from '@docflow/storage';
import type { EngineContext, EventSink } from '../internal/engine-context.ts';
import type { RunGraph } from '../run/run-graph.ts';
import { toStepRun, toWorkflowRun } from '../run/run-resource.ts';
import type { RunState } from '../run/run-state.ts';
import type { PendingEngineEvent } from '../run/transition-context.ts';
import { loadDeliveryTargets } from '../webhooks/delivery-targets.ts';
import { createEvent, deliveryId, planEventDeliveries } from '../webhooks/plan-deliveries.ts';
import type { EventBus } from './event-bus.ts';
import type { EngineEvent, EventResource } from './event-types.ts';

/** The events of one commit and the outbox rows that deliver them. */
export interface PreparedEvents {
  readonly events: EngineEvent[];
  readonly deliveries: DeliveryWrite[];
}

/**
 * Where events leave the engine. Before a commit, {@link prepare} and {@link prepareRunEvents}
 * build the events of a state change and the outbox rows that deliver them (routed by webhook
 * endpoints and subscriptions), which go into the same transaction as the change. After the
 * commit, {@link publish} tells in-process listeners (`engine.on`) and wakes the webhook
 * dispatcher when rows were written. Nothing is told before its commit.
 */
export class EventOutbox implements EventSink {
  readonly #ctx: Pick<EngineContext, 'storage' | 'newId' | 'nowIso'>;
  readonly #bus: EventBus;
  #wake: (() => void) | undefined;

  constructor(ctx: Pick<EngineContext, 'storage' | 'newId' | 'nowIso'>, bus: EventBus) {
    this.#ctx = ctx;
    this.#bus = bus;
  }

  /** The dispatcher's wake-up, while one runs (`undefined`: none, webhooks are off or stopped). */
  attachDispatcher(wake: (() => void) | undefined): void {
    this.#wake = wake;
  }

  /** Wakes the webhook dispatcher, if one runs (a delivery was queued or retried). */
  wakeDispatcher(): void {
    this.#wake?.();
  }

  async prepare(
    eventType: string,
    payload: JsonObject,
    resource?: EventResource,
  ): Promise<{ event: EngineEvent; deliveries: readonly DeliveryWrite[] }> {
    const event = createEvent(this.#ctx, eventType, payload);
    const deliveries = await planEventDeliveries(this.#ctx, event, resource);
    return { event, deliveries };
  }

  publish(events: readonly EngineEvent[]): void {
    for (const event of events) this.#bus.emit(event);
    if (events.length > 0) this.#wake?.();
  }

  /**
   * After a commit that wrote `deliveries` outbox rows: tells the listeners, and wakes the
   * dispatcher only when there is something to send (its claim is a write).
   */
  committed(events: readonly EngineEvent[], deliveries: number): void {
    for (const event of events) this.#bus.emit(event);
    if (deliveries > 0) this.#wake?.();
  }

  /**
   * The events a workflow run's transition raised (`workflow_run.*`), with their outbox rows.
   * With no endpoint anywhere and nobody listening, an event has no audience: building its
   * payload (the whole run) would be the hot path's biggest cost for nothing, so it is skipped.
   */
  async prepareRunEvents(
    state: RunState,
    pending: readonly PendingEngineEvent[],
    graph?: RunGraph,
  ): Promise<PreparedEvents> {
    const events: EngineEvent[] = [];
    const deliveries: DeliveryWrite[] = [];
    const routed = (await loadDeliveryTargets(this.#ctx.storage)).endpoints.length > 0;
    for (const p of pending) {
      if (!routed && p.endpointId === undefined && !this.#bus.has(p.eventType)) continue;
      const payload = p.payload ?? runEventPayload(state, p.stepRunId, graph);
      if (payload === undefined) continue;
      if (p.endpointId !== undefined) {
        // A WEBHOOK_RESPONSE step with its own url: delivered to that endpoint only.
        const event = createEvent(this.#ctx, p.eventType, payload);
        events.push(event);
        deliveries.push({
          id: deliveryId(event.eventId, p.endpointId),
          endpointId: p.endpointId,
          eventId: event.eventId,
          eventType: event.eventType,
          event: { eventId: event.eventId, eventType: event.eventType, payload },
          status: 'pending',
          attempts: [],
          nextAttemptAt: this.#ctx.nowIso(),
        });
        continue;
      }
      const prepared = await this.prepare(p.eventType, payload, {
        type: 'workflow',
        id: state.workflow.id,
      });
      events.push(prepared.event);
      deliveries.push(...prepared.deliveries);
    }
    return { events, deliveries };
  }
}

/** The payload of a run event: the run, or the step run it names (undefined if it is gone). */
function runEventPayload(
  state: RunState,
  stepRunId: string | undefined,
  graph: RunGraph | undefined,
): JsonObject | undefined {
  if (stepRunId === undefined) {
    return toWorkflowRun(state, undefined, undefined, graph) as unknown as JsonObject;
  }
  const stepRun = state.stepRuns.find((s) => s.id === stepRunId);
  return stepRun === undefined
    ? undefined
    : (toStepRun(state, stepRun, undefined, undefined, graph) as unknown as JsonObject);
}
