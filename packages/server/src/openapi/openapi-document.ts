/**
 * `GET /openapi.json`: an OpenAPI 3.1 document made from the route table, from the very schemas
 * that validate requests, so the two cannot drift.
 */
import { API_ERRORS } from '../http/api-error.ts';
import type { RequestHeaderNames } from '../http/header-names.ts';
import type { JsonSchema } from '../http/request-validation.ts';
import type { AnyRoute } from '../routes/route.ts';

const errorBody = {
  type: 'object',
  required: ['code', 'message', 'retryable'],
  properties: {
    code: { enum: Object.keys(API_ERRORS) },
    message: { type: 'string' },
    retryable: { type: 'boolean' },
    requestId: { type: 'string' },
    docUrl: { type: 'string' },
    runId: { type: 'string', description: 'SYNC_TIMEOUT only: the run that goes on' },
    issues: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          code: { type: 'string' },
          path: { type: 'string' },
          message: { type: 'string' },
        },
      },
    },
  },
} as const;

function parametersOf(route: AnyRoute, names: RequestHeaderNames): unknown[] {
  const out: unknown[] = [];
  const params = (route.params?.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, schema] of Object.entries(params)) {
    out.push({ name, in: 'path', required: true, schema });
  }
  const query = (route.query?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((route.query?.required ?? []) as string[]);
  for (const [name, schema] of Object.entries(query)) {
    out.push({
      name,
      in: 'query',
      required: required.has(name),
      schema,
      ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    });
  }
  if (!route.public) {
    out.push(
      { $ref: '#/components/parameters/ApiVersion' },
      {
        name: names.workspaceId,
        in: 'header',
        required: false,
        schema: { type: 'string' },
        description: 'required with an organization key',
      },
    );
  }
  return out;
}

/** The OpenAPI 3.1 document of `routes`. */
export function openApiDocument(
  routes: readonly AnyRoute[],
  options: { readonly names: RequestHeaderNames; readonly version: string },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      parameters: parametersOf(route, options.names),
      responses: {
        '200': {
          description: 'OK',
          content: { 'application/json': { schema: route.response } },
        },
        default: {
          description: 'An error (400, 401, 402, 403, 404, 422, 429 or 500)',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
      ...(route.public ? { security: [] } : {}),
      ...(route.extension ? { 'x-docflow-extension': true } : {}),
      ...(route.deprecated ? { deprecated: true } : {}),
    };
    if (!route.public && route.body === 'multipart') {
      operation.requestBody = {
        required: true,
        content: { 'multipart/form-data': { schema: route.multipart ?? { type: 'object' } } },
      };
    } else if (!route.public && route.body !== undefined) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: route.body } },
      };
    }
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, unknown>)[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'docflow',
      version: options.version,
      description:
        'The HTTP interface of docflow, served by @docflow/server. Extensions to the interface are marked x-docflow-extension.',
    },
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      parameters: {
        ApiVersion: {
          name: options.names.apiVersion,
          in: 'header',
          required: true,
          schema: { const: options.version },
        },
      },
      schemas: { Error: errorBody },
    },
    paths,
  };
}
