/**
 * `engine.webhookDeliveries`: the outbox as users see it. Every delivery of an event to an
 * endpoint, its status and every attempt; a failed (or succeeded) delivery can be sent again.
 */
import type { DeliveryAttempt, DeliveryRecord, DeliveryStatus, JsonObject } from '@docflow/storage';
import { assertNoIssues, EngineError, EngineErrorCode, notFound } from '../errors.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import { inputChecker } from '../validation/json-schema.ts';
import { MANUAL_RETRY_MARKER } from '../webhooks/retry-policy.ts';
import { type ListResult, listPage, type PageParams, pageIssues } from './list-result.ts';
import { storageFailure } from './webhook-endpoints.ts';

/** One event's delivery to one endpoint. */
export interface WebhookDelivery {
  readonly object: 'webhook_delivery';
  /** Prefix `whd_`. */
  readonly id: string;
  readonly webhookEndpointId: string;
  readonly eventId: string;
  readonly eventType: string;
  /** The event object (`{ eventId, eventType, payload }`). */
  readonly event: JsonObject;
  /** `pending` until it succeeds or the dispatcher gives up (`failed`). */
  readonly status: DeliveryStatus;
  /**
   * Every attempt, oldest first. A manual retry appends a marker entry with `durationMs` 0, no
   * `status` and `error` "manual retry requested"; the retry schedule restarts after it.
   */
  readonly attempts: readonly DeliveryAttempt[];
  /** When the next attempt may start (pending deliveries). */
  readonly nextAttemptAt: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Filters of `webhookDeliveries.list` plus pagination. Newest first. */
export interface WebhookDeliveryListInput extends PageParams {
  readonly webhookEndpointId?: string | undefined;
  readonly status?: DeliveryStatus | undefined;
  readonly eventId?: string | undefined;
}

/** `engine.webhookDeliveries`. */
export interface WebhookDeliveriesService {
  list(input?: WebhookDeliveryListInput): Promise<ListResult<WebhookDelivery>>;
  get(id: string): Promise<WebhookDelivery>;
  /**
   * Re-queues a `failed` or `succeeded` delivery as pending, due now, with a fresh retry
   * schedule. A signed-URL delivery gets a new URL. INVALID_STATE while it is still pending.
   */
  retry(id: string): Promise<WebhookDelivery>;
}

/** Options of {@link createWebhookDeliveriesService}. */
export interface WebhookDeliveriesServiceOptions {
  /** Called after a retry is committed: the dispatcher's `notify`. */
  readonly notify?: (() => void) | undefined;
}

const listIssues = inputChecker({
  type: 'object',
  additionalProperties: false,
  properties: {
    webhookEndpointId: { type: 'string', minLength: 1 },
    status: { enum: ['pending', 'succeeded', 'failed'] },
    eventId: { type: 'string', minLength: 1 },
    maxPageSize: { type: 'integer' },
    nextPageToken: { type: 'string' },
  },
});

function toDelivery(record: DeliveryRecord): WebhookDelivery {
  return {
    object: 'webhook_delivery',
    id: record.id,
    webhookEndpointId: record.endpointId,
    eventId: record.eventId,
    eventType: record.eventType,
    event: record.event,
    status: record.status,
    attempts: record.attempts,
    nextAttemptAt: record.nextAttemptAt,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** The `engine.webhookDeliveries` service. */
export function createWebhookDeliveriesService(
  ctx: EngineContext,
  options: WebhookDeliveriesServiceOptions = {},
): WebhookDeliveriesService {
  async function read(id: string): Promise<DeliveryRecord> {
    let record: DeliveryRecord | undefined;
    try {
      record = await ctx.storage.getDelivery(id);
    } catch (error) {
      storageFailure(error, 'Webhook delivery');
    }
    if (record === undefined) throw notFound('webhook delivery', id);
    return record;
  }

  return {
    async list(rawInput = {}) {
      assertNoIssues(pageIssues(rawInput), 'list parameters');
      const input = Object.fromEntries(
        Object.entries(rawInput).filter(([, v]) => v !== undefined),
      ) as WebhookDeliveryListInput;
      try {
        return await listPage(
          input,
          (page) =>
            ctx.storage.listDeliveries({
              ...page,
              ...(input.webhookEndpointId === undefined
                ? {}
                : { endpointId: input.webhookEndpointId }),
              ...(input.status === undefined ? {} : { status: input.status }),
              ...(input.eventId === undefined ? {} : { eventId: input.eventId }),
            }),
          toDelivery,
          listIssues(input),
        );
      } catch (error) {
        storageFailure(error, 'Webhook deliveries');
      }
    },

    async get(id) {
      return toDelivery(await read(id));
    },

    async retry(id) {
      const record = await read(id);
      if (record.status === 'pending') {
        throw new EngineError(
          EngineErrorCode.INVALID_STATE,
          `Webhook delivery ${id} is still pending; only failed or succeeded deliveries can be retried`,
          { details: { id, status: record.status } },
        );
      }
      const at = ctx.nowIso();
      const attempts: DeliveryAttempt[] = [
        ...record.attempts,
        { at, durationMs: 0, error: MANUAL_RETRY_MARKER },
      ];
      try {
        await ctx.storage.commit({
          deliveries: [
            {
              id: record.id,
              endpointId: record.endpointId,
              eventId: record.eventId,
              eventType: record.eventType,
              event: record.event,
              status: 'pending',
              attempts,
              nextAttemptAt: at,
              at,
            },
          ],
        });
      } catch (error) {
        storageFailure(error, 'Webhook delivery');
      }
      options.notify?.();
      return toDelivery({
        ...record,
        status: 'pending',
        attempts,
        nextAttemptAt: at,
        updatedAt: at,
      });
    },
  };
}
