/**
 * `engine.webhookEndpoints`: where events are sent. An endpoint has a URL, the global event types
 * it receives (`enabledEvents`, never `workflow_run.*`), an API version pinned at creation and a
 * signing secret that is returned once, by `create`, and never again.
 */
import { randomBytes } from 'node:crypto';
import type { DocumentWrite, JsonObject, StoredDocument } from '@docflow/storage';
import { assertNoIssues, notFound, toEngineError, type ValidationIssue } from '../errors.ts';
import {
  GLOBAL_EVENT_TYPES,
  isEventType,
  isGlobalEventType,
  isWorkflowRunEventType,
} from '../events/event-types.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import { inputChecker } from '../validation/json-schema.ts';
import { urlIssues } from '../validation/url-issues.ts';
import { invalidateDeliveryTargets } from '../webhooks/delivery-targets.ts';
import {
  toStoredWebhookEndpoint,
  type WebhookDeliveryFormat,
} from '../webhooks/stored-endpoint.ts';
import { type ListResult, listPage, type SortedPageParams } from './list-result.ts';

/** The API version every endpoint is pinned to; the only one the interface accepts. */
export const WEBHOOK_API_VERSION = '2026-02-09';
/** Id prefix of webhook endpoints (docs/reference/resources.md). */
export const WEBHOOK_ENDPOINT_ID_PREFIX = 'wh_';
/** Prefix of signing secrets. */
export const SIGNING_SECRET_PREFIX = 'wss_';

/** A webhook endpoint as returned by get, list and update (no secret). */
export interface WebhookEndpoint {
  readonly object: 'webhook_endpoint';
  /** Prefix `wh_`. */
  readonly id: string;
  readonly url: string;
  readonly name: string;
  /** Global event types sent to this endpoint for every resource. */
  readonly enabledEvents: readonly string[];
  /** Fixed at creation; sent as `x-service-api-version` with every request. */
  readonly apiVersion: string;
  /** `signed_url`: every payload is `{ data: url }`. `json` (default): inline. */
  readonly deliveryFormat: WebhookDeliveryFormat;
  /** With `json`: bodies larger than this many bytes are sent as signed URLs. */
  readonly signedUrlThresholdBytes: number | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The endpoint returned by `create`: the only time the signing secret is shown. */
export interface CreatedWebhookEndpoint extends WebhookEndpoint {
  /** Key of the HMAC signature of every request. Store it; it is not returned again. */
  readonly signingSecret: string;
}

/** Input of `webhookEndpoints.create`. */
export interface WebhookEndpointCreateInput {
  /** An absolute http or https URL. */
  readonly url: string;
  readonly name?: string | undefined;
  /** Global event types (not `workflow_run.*`); default none. */
  readonly enabledEvents?: readonly string[] | undefined;
  /** Only `2026-02-09` (the default). */
  readonly apiVersion?: string | undefined;
  readonly deliveryFormat?: WebhookDeliveryFormat | undefined;
  /** Bytes; bodies above it go as signed URLs. `null` or omitted: never by size. */
  readonly signedUrlThresholdBytes?: number | null | undefined;
}

/** Input of `webhookEndpoints.update`: only the fields sent change. `apiVersion` cannot. */
export interface WebhookEndpointUpdateInput {
  readonly url?: string | undefined;
  readonly name?: string | undefined;
  readonly enabledEvents?: readonly string[] | undefined;
  readonly deliveryFormat?: WebhookDeliveryFormat | undefined;
  readonly signedUrlThresholdBytes?: number | null | undefined;
}

/** What `delete` returns. */
export interface DeletedWebhookEndpoint {
  readonly object: 'webhook_endpoint';
  readonly id: string;
  readonly deleted: true;
}

/** `engine.webhookEndpoints`. */
export interface WebhookEndpointsService {
  create(input: WebhookEndpointCreateInput): Promise<CreatedWebhookEndpoint>;
  get(id: string): Promise<WebhookEndpoint>;
  list(input?: SortedPageParams): Promise<ListResult<WebhookEndpoint>>;
  update(id: string, input: WebhookEndpointUpdateInput): Promise<WebhookEndpoint>;
  /** Deletes the endpoint and all its subscriptions, in one commit. */
  delete(id: string): Promise<DeletedWebhookEndpoint>;
}

const fields = {
  url: { type: 'string', minLength: 1, maxLength: 2048 },
  name: { type: 'string', maxLength: 255 },
  enabledEvents: { type: 'array', maxItems: 100, items: { type: 'string' } },
  apiVersion: { type: 'string' },
  deliveryFormat: { enum: ['json', 'signed_url'] },
  signedUrlThresholdBytes: { type: ['integer', 'null'], minimum: 0 },
};

const createIssues = inputChecker({
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: fields,
});

const updateIssues = inputChecker({
  type: 'object',
  additionalProperties: false,
  properties: fields,
});

function defined<T extends object>(input: T): T {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as T;
}

function enabledEventIssues(events: unknown): ValidationIssue[] {
  if (!Array.isArray(events)) return [];
  const issues: ValidationIssue[] = [];
  events.forEach((type, i) => {
    if (typeof type !== 'string' || isGlobalEventType(type)) return;
    const path = `enabledEvents[${i}]`;
    if (isWorkflowRunEventType(type)) {
      issues.push({
        code: 'SUBSCRIPTION_ONLY_EVENT',
        path,
        message: `${type} is delivered only through workflow subscriptions (webhookSubscriptions.create with resourceType "workflow")`,
      });
    } else if (!isEventType(type)) {
      issues.push({
        code: 'UNKNOWN_EVENT_TYPE',
        path,
        message: `${type} is not an event type; valid: ${GLOBAL_EVENT_TYPES.join(', ')}`,
      });
    }
  });
  return issues;
}

function toEndpoint(doc: StoredDocument): WebhookEndpoint {
  const d = doc.data;
  const stored = toStoredWebhookEndpoint(doc);
  return {
    object: 'webhook_endpoint',
    id: doc.id,
    url: stored.url,
    name: typeof d.name === 'string' ? d.name : '',
    enabledEvents: Array.isArray(d.enabledEvents) ? d.enabledEvents.map(String) : [],
    apiVersion: stored.apiVersion,
    deliveryFormat: stored.deliveryFormat,
    signedUrlThresholdBytes: stored.signedUrlThresholdBytes,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

function dedupe(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** Maps storage failures of a webhook write or read to EngineErrors ({@link toEngineError}). */
export function storageFailure(error: unknown, what: string): never {
  throw toEngineError(error, what);
}

/** Every subscription document of an endpoint (all pages). */
export async function listEndpointSubscriptionIds(
  ctx: EngineContext,
  endpointId: string,
): Promise<string[]> {
  const ids: string[] = [];
  let pageToken: string | undefined;
  do {
    const page = await ctx.storage.listDocuments('webhookSubscriptions', {
      parentId: endpointId,
      pageSize: 1000,
      ...(pageToken === undefined ? {} : { pageToken }),
    });
    ids.push(...page.items.map((doc) => doc.id));
    pageToken = page.nextPageToken;
  } while (pageToken !== undefined);
  return ids;
}

/**
 * The `engine.webhookEndpoints` service over the engine's storage.
 *
 * @example
 * const endpoints = createWebhookEndpointsService(ctx);
 * const { id, signingSecret } = await endpoints.create({ url: 'https://example.com/hooks' });
 */
export function createWebhookEndpointsService(ctx: EngineContext): WebhookEndpointsService {
  async function read(id: string): Promise<StoredDocument> {
    let doc: StoredDocument | undefined;
    try {
      doc = await ctx.storage.getDocument('webhookEndpoints', id);
    } catch (error) {
      storageFailure(error, 'Webhook endpoint');
    }
    if (doc === undefined) throw notFound('webhook endpoint', id);
    return doc;
  }

  async function write(changes: Parameters<typeof ctx.storage.commit>[0]): Promise<void> {
    try {
      await ctx.storage.commit(changes);
    } catch (error) {
      storageFailure(error, 'Webhook endpoint');
    } finally {
      invalidateDeliveryTargets(ctx.storage);
    }
  }

  return {
    async create(rawInput) {
      const input = defined(rawInput ?? ({} as WebhookEndpointCreateInput));
      const issues = [
        ...createIssues(input),
        ...urlIssues(input.url, 'url'),
        ...enabledEventIssues(input.enabledEvents),
      ];
      if (input.apiVersion !== undefined && input.apiVersion !== WEBHOOK_API_VERSION) {
        issues.push({
          code: 'UNSUPPORTED_API_VERSION',
          path: 'apiVersion',
          message: `must be ${WEBHOOK_API_VERSION}`,
        });
      }
      assertNoIssues(issues, 'webhook endpoint');
      const id = ctx.newId(WEBHOOK_ENDPOINT_ID_PREFIX);
      const signingSecret = `${SIGNING_SECRET_PREFIX}${randomBytes(32).toString('hex')}`;
      const name = input.name ?? '';
      const data: JsonObject = {
        url: input.url,
        name,
        enabledEvents: dedupe(input.enabledEvents ?? []),
        apiVersion: WEBHOOK_API_VERSION,
        deliveryFormat: input.deliveryFormat ?? 'json',
        signedUrlThresholdBytes: input.signedUrlThresholdBytes ?? null,
        signingSecret,
      };
      const at = ctx.nowIso();
      await write({
        documents: [{ collection: 'webhookEndpoints', id, name, data, expectedRevision: 0, at }],
      });
      return {
        ...toEndpoint({
          collection: 'webhookEndpoints',
          id,
          name,
          data,
          revision: 1,
          createdAt: at,
          updatedAt: at,
        }),
        signingSecret,
      };
    },

    async get(id) {
      return toEndpoint(await read(id));
    },

    async list(input) {
      try {
        return await listPage(
          input,
          (page) => ctx.storage.listDocuments('webhookEndpoints', page),
          toEndpoint,
        );
      } catch (error) {
        storageFailure(error, 'Webhook endpoints');
      }
    },

    async update(id, rawInput) {
      const input = defined(rawInput ?? ({} as WebhookEndpointUpdateInput)) as Record<
        string,
        unknown
      >;
      const doc = await read(id);
      const issues = [
        ...updateIssues(input),
        ...urlIssues(input.url, 'url'),
        ...enabledEventIssues(input.enabledEvents),
      ];
      if (input.apiVersion !== undefined && input.apiVersion !== doc.data.apiVersion) {
        issues.push({
          code: 'IMMUTABLE_FIELD',
          path: 'apiVersion',
          message: 'is fixed at creation and cannot change',
        });
      }
      assertNoIssues(issues, 'webhook endpoint update');
      const { apiVersion: _fixed, ...changes } = input;
      if (Array.isArray(changes.enabledEvents)) {
        changes.enabledEvents = dedupe(changes.enabledEvents as string[]);
      }
      const data = { ...doc.data, ...changes } as JsonObject;
      const name = typeof data.name === 'string' ? data.name : '';
      const at = ctx.nowIso();
      const update: DocumentWrite = {
        collection: 'webhookEndpoints',
        id,
        name,
        data,
        expectedRevision: doc.revision,
        at,
      };
      await write({ documents: [update] });
      return toEndpoint({ ...doc, name, data, revision: doc.revision + 1, updatedAt: at });
    },

    async delete(id) {
      await read(id);
      let subscriptionIds: string[];
      try {
        subscriptionIds = await listEndpointSubscriptionIds(ctx, id);
      } catch (error) {
        storageFailure(error, 'Webhook subscriptions');
      }
      await write({
        deleteDocuments: [
          { collection: 'webhookEndpoints', id },
          ...subscriptionIds.map((subId) => ({
            collection: 'webhookSubscriptions' as const,
            id: subId,
          })),
        ],
      });
      return { object: 'webhook_endpoint', id, deleted: true };
    },
  };
}
