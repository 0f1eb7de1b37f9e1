/**
 * `engine.webhookSubscriptions`: binds an endpoint to one extractor, classifier, splitter or
 * workflow, for the event types the interface allows for that resource type. One subscription per
 * endpoint and resource: creating a second one updates the first (the document `key` enforces it).
 *
 * Storage layout: collection `webhookSubscriptions`, `parentId` = the endpoint id (listing by
 * endpoint, deleting with the endpoint), `secondaryId` = the resource id (listing by resource),
 * `key` = `<endpointId>/<resourceType>/<resourceId>` (unique).
 */
import type { JsonObject, StoredDocument } from '@docflow/storage';
import { isStorageError } from '@docflow/storage';
import { assertNoIssues, notFound, type ValidationIssue } from '../errors.ts';
import {
  SUBSCRIPTION_RESOURCE_TYPES,
  type SubscriptionResourceType,
  VALID_SUBSCRIPTION_EVENTS,
} from '../events/event-types.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import { inputChecker } from '../validation/json-schema.ts';
import { invalidateDeliveryTargets } from '../webhooks/delivery-targets.ts';
import { type ListResult, listPage, type SortedPageParams } from './list-result.ts';
import { storageFailure } from './webhook-endpoints.ts';

/** Id prefix of webhook subscriptions (the service's own prefix). */
export const WEBHOOK_SUBSCRIPTION_ID_PREFIX = 'whes_';

/** A webhook subscription. */
export interface WebhookSubscription {
  readonly object: 'webhook_subscription';
  /** Prefix `whes_`. */
  readonly id: string;
  readonly webhookEndpointId: string;
  readonly resourceType: SubscriptionResourceType;
  readonly resourceId: string;
  /** Event types valid for `resourceType` (the interface's table). */
  readonly enabledEvents: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Input of `webhookSubscriptions.create`. */
export interface WebhookSubscriptionCreateInput {
  readonly webhookEndpointId: string;
  readonly resourceType: SubscriptionResourceType;
  readonly resourceId: string;
  readonly enabledEvents: readonly string[];
}

/** Input of `webhookSubscriptions.update`: the endpoint and resource are fixed. */
export interface WebhookSubscriptionUpdateInput {
  readonly enabledEvents?: readonly string[] | undefined;
}

/** Filters of `webhookSubscriptions.list` (combinable) plus pagination. */
export interface WebhookSubscriptionListInput extends SortedPageParams {
  readonly webhookEndpointId?: string | undefined;
  readonly resourceId?: string | undefined;
}

/** What `delete` returns. */
export interface DeletedWebhookSubscription {
  readonly object: 'webhook_subscription';
  readonly id: string;
  readonly deleted: true;
}

/** `engine.webhookSubscriptions`. */
export interface WebhookSubscriptionsService {
  /** Creates the subscription, or updates `enabledEvents` of the existing one for that pair. */
  create(input: WebhookSubscriptionCreateInput): Promise<WebhookSubscription>;
  get(id: string): Promise<WebhookSubscription>;
  list(input?: WebhookSubscriptionListInput): Promise<ListResult<WebhookSubscription>>;
  update(id: string, input: WebhookSubscriptionUpdateInput): Promise<WebhookSubscription>;
  delete(id: string): Promise<DeletedWebhookSubscription>;
}

const idString = { type: 'string', minLength: 1, maxLength: 255 };
const eventsArray = { type: 'array', maxItems: 100, items: { type: 'string' } };

const createIssues = inputChecker({
  type: 'object',
  additionalProperties: false,
  required: ['webhookEndpointId', 'resourceType', 'resourceId', 'enabledEvents'],
  properties: {
    webhookEndpointId: idString,
    resourceType: { enum: [...SUBSCRIPTION_RESOURCE_TYPES] },
    resourceId: idString,
    enabledEvents: eventsArray,
  },
});

const updateIssues = inputChecker({
  type: 'object',
  additionalProperties: false,
  properties: { enabledEvents: eventsArray },
});

const listIssues = inputChecker({
  type: 'object',
  additionalProperties: false,
  properties: {
    webhookEndpointId: idString,
    resourceId: idString,
    maxPageSize: { type: 'integer' },
    nextPageToken: { type: 'string' },
    sortBy: { type: 'string' },
    sortDir: { type: 'string' },
  },
});

function defined<T extends object>(input: T): T {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as T;
}

function isResourceType(value: unknown): value is SubscriptionResourceType {
  return (SUBSCRIPTION_RESOURCE_TYPES as readonly unknown[]).includes(value);
}

function eventIssues(resourceType: SubscriptionResourceType, events: unknown): ValidationIssue[] {
  if (!Array.isArray(events)) return [];
  const valid: readonly string[] = VALID_SUBSCRIPTION_EVENTS[resourceType];
  const issues: ValidationIssue[] = [];
  events.forEach((type, i) => {
    if (typeof type !== 'string' || valid.includes(type)) return;
    issues.push({
      code: 'INVALID_EVENT_FOR_RESOURCE_TYPE',
      path: `enabledEvents[${i}]`,
      message: `${type} is not valid for resourceType ${resourceType}; valid: ${valid.join(', ')}`,
    });
  });
  return issues;
}

function toSubscription(doc: StoredDocument): WebhookSubscription {
  const d = doc.data;
  return {
    object: 'webhook_subscription',
    id: doc.id,
    webhookEndpointId: String(d.webhookEndpointId),
    resourceType: d.resourceType as SubscriptionResourceType,
    resourceId: String(d.resourceId),
    enabledEvents: Array.isArray(d.enabledEvents) ? d.enabledEvents.map(String) : [],
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

/** The unique document key of an endpoint + resource pair. */
export function subscriptionKey(
  webhookEndpointId: string,
  resourceType: string,
  resourceId: string,
): string {
  return `${webhookEndpointId}/${resourceType}/${resourceId}`;
}

/**
 * The `engine.webhookSubscriptions` service over the engine's storage.
 *
 * @example
 * await subscriptions.create({
 *   webhookEndpointId: endpoint.id,
 *   resourceType: 'workflow',
 *   resourceId: workflow.id,
 *   enabledEvents: ['workflow_run.completed', 'workflow_run.failed'],
 * });
 */
export function createWebhookSubscriptionsService(ctx: EngineContext): WebhookSubscriptionsService {
  async function read(id: string): Promise<StoredDocument> {
    let doc: StoredDocument | undefined;
    try {
      doc = await ctx.storage.getDocument('webhookSubscriptions', id);
    } catch (error) {
      storageFailure(error, 'Webhook subscription');
    }
    if (doc === undefined) throw notFound('webhook subscription', id);
    return doc;
  }

  async function write(
    doc: Omit<StoredDocument, 'revision' | 'createdAt' | 'updatedAt'>,
    expectedRevision: number,
    at: string,
  ): Promise<void> {
    try {
      await ctx.storage.commit({ documents: [{ ...doc, expectedRevision, at }] });
    } finally {
      invalidateDeliveryTargets(ctx.storage);
    }
  }

  async function upsert(
    input: WebhookSubscriptionCreateInput,
    enabledEvents: string[],
  ): Promise<WebhookSubscription> {
    const key = subscriptionKey(input.webhookEndpointId, input.resourceType, input.resourceId);
    const existing = await ctx.storage.getDocumentByKey('webhookSubscriptions', key);
    const at = ctx.nowIso();
    const data: JsonObject = {
      webhookEndpointId: input.webhookEndpointId,
      resourceType: input.resourceType,
      resourceId: input.resourceId,
      enabledEvents,
    };
    const fields = {
      collection: 'webhookSubscriptions' as const,
      id: existing?.id ?? ctx.newId(WEBHOOK_SUBSCRIPTION_ID_PREFIX),
      parentId: input.webhookEndpointId,
      secondaryId: input.resourceId,
      key,
      data,
    };
    await write(fields, existing?.revision ?? 0, at);
    return toSubscription({
      ...fields,
      revision: (existing?.revision ?? 0) + 1,
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
    });
  }

  return {
    async create(rawInput) {
      const input = defined(rawInput ?? ({} as WebhookSubscriptionCreateInput));
      const issues = createIssues(input);
      if (isResourceType(input.resourceType)) {
        issues.push(...eventIssues(input.resourceType, input.enabledEvents));
      }
      assertNoIssues(issues, 'webhook subscription');
      let endpoint: StoredDocument | undefined;
      try {
        endpoint = await ctx.storage.getDocument('webhookEndpoints', input.webhookEndpointId);
      } catch (error) {
        storageFailure(error, 'Webhook endpoint');
      }
      if (endpoint === undefined) {
        throw notFound('webhook endpoint', input.webhookEndpointId, 'webhookEndpointId');
      }
      const enabledEvents = [...new Set(input.enabledEvents)];
      try {
        return await upsert(input, enabledEvents);
      } catch (error) {
        // Two concurrent creates for one pair: the loser updates what the winner created.
        if (isStorageError(error, 'DUPLICATE_KEY') || isStorageError(error, 'REVISION_CONFLICT')) {
          try {
            return await upsert(input, enabledEvents);
          } catch (again) {
            storageFailure(again, 'Webhook subscription');
          }
        }
        storageFailure(error, 'Webhook subscription');
      }
    },

    async get(id) {
      return toSubscription(await read(id));
    },

    async list(rawInput = {}) {
      const input = defined(rawInput);
      try {
        return await listPage(
          input,
          (page) =>
            ctx.storage.listDocuments('webhookSubscriptions', {
              ...page,
              ...(input.webhookEndpointId === undefined
                ? {}
                : { parentId: input.webhookEndpointId }),
              ...(input.resourceId === undefined ? {} : { secondaryId: input.resourceId }),
            }),
          toSubscription,
          listIssues(input),
        );
      } catch (error) {
        storageFailure(error, 'Webhook subscriptions');
      }
    },

    async update(id, rawInput) {
      const input = defined(rawInput ?? {}) as Record<string, unknown>;
      const doc = await read(id);
      const current = toSubscription(doc);
      const issues = updateIssues(input).map((issue) =>
        issue.code === 'UNKNOWN_PROPERTY' &&
        ['webhookEndpointId', 'resourceType', 'resourceId'].includes(issue.path)
          ? {
              code: 'IMMUTABLE_FIELD',
              path: issue.path,
              message: 'cannot change; delete the subscription and create another',
            }
          : issue,
      );
      issues.push(...eventIssues(current.resourceType, input.enabledEvents));
      assertNoIssues(issues, 'webhook subscription update');
      if (!Array.isArray(input.enabledEvents)) return current;
      const enabledEvents = [...new Set(input.enabledEvents as string[])];
      const at = ctx.nowIso();
      const data: JsonObject = { ...doc.data, enabledEvents };
      try {
        await write(
          {
            collection: 'webhookSubscriptions',
            id,
            parentId: doc.parentId,
            secondaryId: doc.secondaryId,
            key: doc.key,
            data,
          },
          doc.revision,
          at,
        );
      } catch (error) {
        storageFailure(error, 'Webhook subscription');
      }
      return toSubscription({ ...doc, data, revision: doc.revision + 1, updatedAt: at });
    },

    async delete(id) {
      await read(id);
      try {
        await ctx.storage.commit({ deleteDocuments: [{ collection: 'webhookSubscriptions', id }] });
      } catch (error) {
        storageFailure(error, 'Webhook subscription');
      } finally {
        invalidateDeliveryTargets(ctx.storage);
      }
      return { object: 'webhook_subscription', id, deleted: true };
    },
  };
}
