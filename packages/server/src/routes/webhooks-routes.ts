import { type Engine, isEngineError, type WebhookEndpoint } from '@docflow/engine';
import { ApiError, notSupported } from '../http/api-error.ts';
import { listOrder } from './ordering.ts';
import { type AnyRoute, workspaceRoute } from './route.ts';
import {
  deleted,
  idParams,
  listOf,
  pageQuery,
  querySchema,
  resource,
  sortDir,
  timestamp,
} from './schemas.ts';

const TAG = 'Webhooks';

const advancedOptions = {
  type: 'object',
  additionalProperties: false,
  properties: {
    headers: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'not supported: refused unless empty',
    },
    payload: {
      type: 'object',
      required: ['format'],
      additionalProperties: false,
      properties: {
        format: {
          enum: ['json', 'url'],
          description: 'url: every payload as a signed URL (one hour)',
        },
        urlThresholdBytes: {
          type: 'integer',
          minimum: 0,
          description: 'with json: payloads above this many bytes go as signed URLs',
        },
      },
    },
  },
} as const;

const endpointStatus = { enum: ['enabled', 'disabled'], description: 'only enabled' } as const;
const events = { type: 'array', maxItems: 100, items: { type: 'string' } } as const;

/** The fields of an endpoint a request may send (create adds `apiVersion`, fixed thereafter). */
const endpointFields = {
  url: { type: 'string', minLength: 1, maxLength: 2048 },
  name: { type: 'string', maxLength: 255 },
  status: endpointStatus,
  enabledEvents: events,
  advancedOptions,
} as const;

const endpointSchema = resource('webhook_endpoint', {
  url: { type: 'string' },
  name: { type: 'string' },
  status: endpointStatus,
  enabledEvents: events,
  apiVersion: { const: '2026-02-09' },
  advancedOptions: { oneOf: [advancedOptions, { type: 'null' }] },
  createdAt: timestamp,
  createdBy: { type: ['object', 'null'] },
});

const subscriptionSchema = resource('webhook_subscription', {
  webhookEndpointId: { type: 'string' },
  resourceType: { enum: ['extractor', 'classifier', 'splitter', 'workflow'] },
  resourceId: { type: 'string' },
  enabledEvents: events,
  createdAt: timestamp,
});

type AdvancedOptions = {
  headers?: Record<string, string>;
  payload?: { format: 'json' | 'url'; urlThresholdBytes?: number };
};

type EndpointBody = {
  url?: string;
  name?: string;
  status?: 'enabled' | 'disabled';
  enabledEvents?: string[];
  apiVersion?: string;
  advancedOptions?: AdvancedOptions;
};

/** The engine's delivery settings from the SDK's `status` and `advancedOptions`. */
function deliverySettings(body: EndpointBody): Record<string, unknown> {
  if (body.status === 'disabled') {
    throw notSupported(
      'body.status',
      'docflow endpoints are always enabled; delete the endpoint to stop deliveries',
    );
  }
  if (body.advancedOptions?.headers && Object.keys(body.advancedOptions.headers).length > 0) {
    throw notSupported('body.advancedOptions.headers', 'docflow sends no custom headers');
  }
  const payload = body.advancedOptions?.payload;
  if (!payload) return {};
  return {
    deliveryFormat: payload.format === 'url' ? 'signed_url' : 'json',
    signedUrlThresholdBytes: payload.format === 'json' ? (payload.urlThresholdBytes ?? null) : null,
  };
}

/** The SDK's WebhookEndpoint (the engine's fields stay beside it). */
function present<T extends WebhookEndpoint>(endpoint: T) {
  const plain = endpoint.deliveryFormat === 'json' && endpoint.signedUrlThresholdBytes === null;
  return {
    ...endpoint,
    status: 'enabled',
    advancedOptions: plain
      ? null
      : {
          payload:
            endpoint.deliveryFormat === 'signed_url'
              ? { format: 'url' }
              : { format: 'json', urlThresholdBytes: endpoint.signedUrlThresholdBytes },
        },
    createdBy: null,
  };
}

/** Checks that a subscription's resource is one of this workspace's. */
async function checkResource(engine: Engine, type: string, id: string): Promise<void> {
  const lookups: Record<string, (i: string) => Promise<unknown>> = {
    workflow: (i) => engine.workflows.get(i),
    extractor: (i) => engine.extractors.get(i),
    classifier: (i) => engine.classifiers.get(i),
    splitter: (i) => engine.splitters.get(i),
  };
  const lookup = lookups[type];
  if (!lookup) return; // the engine names the bad resourceType
  try {
    await lookup(id);
  } catch (error) {
    if (!isEngineError(error, 'NOT_FOUND')) throw error;
    throw new ApiError('NOT_FOUND', `No ${type} ${JSON.stringify(id)} in this workspace`, {
      issues: [{ code: 'NOT_FOUND', path: 'body.resourceId', message: `no such ${type}` }],
    });
  }
}

type PageQuery = { nextPageToken?: string; maxPageSize?: number; sortDir?: 'asc' | 'desc' };

/** Webhook endpoints (global events) and subscriptions (events of one resource). */
export const webhooksRoutes: readonly AnyRoute[] = [
  workspaceRoute<Record<string, never>, PageQuery & { status?: 'enabled' | 'disabled' }, undefined>(
    {
      method: 'GET',
      path: '/webhook_endpoints',
      operationId: 'webhookEndpoints.list',
      summary: 'List webhook endpoints, newest first',
      tag: TAG,
      query: querySchema({ status: endpointStatus, sortDir, ...pageQuery }),
      response: listOf(endpointSchema),
      async handle({ engine, query }) {
        if (query.status === 'disabled') return { object: 'list', data: [] };
        const page = await engine.webhookEndpoints.list({
          maxPageSize: query.maxPageSize,
          nextPageToken: query.nextPageToken,
          ...listOrder(query),
        });
        return { ...page, data: page.data.map(present) };
      },
    },
  ),
  workspaceRoute<Record<string, never>, Record<string, never>, EndpointBody>({
    method: 'POST',
    path: '/webhook_endpoints',
    operationId: 'webhookEndpoints.create',
    summary: 'Create an endpoint; its signingSecret is in this response only',
    tag: TAG,
    body: {
      type: 'object',
      required: ['url', 'name', 'enabledEvents', 'apiVersion'],
      additionalProperties: false,
      properties: {
        ...endpointFields,
        apiVersion: { type: 'string', description: 'only 2026-02-09' },
      },
    },
    response: endpointSchema,
    async handle({ engine, body }) {
      const { status: _s, advancedOptions: _a, ...rest } = body;
      return present(
        await engine.webhookEndpoints.create({ ...rest, ...deliverySettings(body) } as never),
      );
    },
  }),
  workspaceRoute<{ id: string }, Record<string, never>, undefined>({
    method: 'GET',
    path: '/webhook_endpoints/{id}',
    operationId: 'webhookEndpoints.retrieve',
    summary: 'Get an endpoint (never its secret)',
    tag: TAG,
    params: idParams,
    response: endpointSchema,
    handle: async ({ engine, params }) => present(await engine.webhookEndpoints.get(params.id)),
  }),
  workspaceRoute<{ id: string }, Record<string, never>, EndpointBody>({
    method: 'POST',
    path: '/webhook_endpoints/{id}',
    operationId: 'webhookEndpoints.update',
    summary: 'Change the sent fields only (the API version is fixed at creation)',
    tag: TAG,
    params: idParams,
    body: { type: 'object', additionalProperties: false, properties: endpointFields },
    response: endpointSchema,
    async handle({ engine, params, body }) {
      const { status: _s, advancedOptions: _a, ...rest } = body ?? {};
      return present(
        await engine.webhookEndpoints.update(params.id, {
          ...rest,
          ...deliverySettings(body ?? {}),
        } as never),
      );
    },
  }),
  workspaceRoute<{ id: string }, Record<string, never>, undefined>({
    method: 'DELETE',
    path: '/webhook_endpoints/{id}',
    operationId: 'webhookEndpoints.delete',
    summary: 'Delete an endpoint and all its subscriptions',
    tag: TAG,
    params: idParams,
    response: deleted,
    handle: ({ engine, params }) => engine.webhookEndpoints.delete(params.id),
  }),
  workspaceRoute<
    Record<string, never>,
    PageQuery & { webhookEndpointId?: string; resourceId?: string },
    undefined
  >({
    method: 'GET',
    path: '/webhook_subscriptions',
    operationId: 'webhookSubscriptions.list',
    summary: 'List subscriptions, by endpoint or by resource',
    tag: TAG,
    query: querySchema({
      webhookEndpointId: { type: 'string', maxLength: 255 },
      resourceId: { type: 'string', maxLength: 255 },
      sortDir,
      ...pageQuery,
    }),
    response: listOf(subscriptionSchema),
    async handle({ engine, query }) {
      return engine.webhookSubscriptions.list(query);
    },
  }),
  workspaceRoute<
    Record<string, never>,
    Record<string, never>,
    { webhookEndpointId: string; resourceType: string; resourceId: string; enabledEvents: string[] }
  >({
    method: 'POST',
    path: '/webhook_subscriptions',
    operationId: 'webhookSubscriptions.create',
    summary: "Subscribe an endpoint to one resource's events (an existing pair is updated)",
    tag: TAG,
    body: {
      type: 'object',
      required: ['webhookEndpointId', 'resourceType', 'resourceId', 'enabledEvents'],
      additionalProperties: false,
      properties: {
        webhookEndpointId: { type: 'string', minLength: 1, maxLength: 255 },
        resourceType: { enum: ['extractor', 'classifier', 'splitter', 'workflow'] },
        resourceId: { type: 'string', minLength: 1, maxLength: 255 },
        enabledEvents: events,
      },
    },
    response: subscriptionSchema,
    async handle({ engine, body }) {
      await checkResource(engine, body.resourceType, body.resourceId);
      return engine.webhookSubscriptions.create(body as never);
    },
  }),
  workspaceRoute<{ id: string }, Record<string, never>, undefined>({
    method: 'GET',
    path: '/webhook_subscriptions/{id}',
    operationId: 'webhookSubscriptions.retrieve',
    summary: 'Get a subscription',
    tag: TAG,
    params: idParams,
    response: subscriptionSchema,
    handle: ({ engine, params }) => engine.webhookSubscriptions.get(params.id),
  }),
  workspaceRoute<{ id: string }, Record<string, never>, { enabledEvents: string[] }>({
    method: 'POST',
    path: '/webhook_subscriptions/{id}',
    operationId: 'webhookSubscriptions.update',
    summary: "Replace a subscription's enabledEvents",
    tag: TAG,
    params: idParams,
    body: {
      type: 'object',
      required: ['enabledEvents'],
      additionalProperties: false,
      properties: { enabledEvents: events },
    },
    response: subscriptionSchema,
    handle: ({ engine, params, body }) => engine.webhookSubscriptions.update(params.id, body),
  }),
  workspaceRoute<{ id: string }, Record<string, never>, undefined>({
    method: 'DELETE',
    path: '/webhook_subscriptions/{id}',
    operationId: 'webhookSubscriptions.delete',
    summary: 'Delete a subscription',
    tag: TAG,
    params: idParams,
    response: deleted,
    handle: ({ engine, params }) => engine.webhookSubscriptions.delete(params.id),
  }),
];
