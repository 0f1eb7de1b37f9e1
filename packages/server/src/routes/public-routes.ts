import type { Engine } from '@docflow/engine';
import type { FastifyReply } from 'fastify';
import { API_ERRORS, ApiError, type ApiErrorCode } from '../http/api-error.ts';
import type { JsonSchema } from '../http/request-validation.ts';
import type { PresignedCheck } from '../presign/url-signer.ts';
import { type AnyRoute, publicRoute, type ServerContext } from './route.ts';
import { idsParams, querySchema } from './schemas.ts';

const TAG = 'Server';
const signedQuery = querySchema({
  expires: { type: 'string', description: 'Unix seconds' },
  signature: { type: 'string', description: 'hex HMAC-SHA-256' },
});

function refuse(check: PresignedCheck): void {
  if (check === 'expired') throw new ApiError('PRESIGNED_URL_EXPIRED', 'The URL has expired');
  if (check === 'invalid') {
    throw new ApiError('PRESIGNED_URL_INVALID', 'The URL signature is not valid for this path');
  }
}

async function engineOf(server: ServerContext, workspaceId: string) {
  const engine = await server.engineFor(workspaceId);
  if (!engine) throw new ApiError('NOT_FOUND', 'No such resource');
  return engine;
}

type Signed = { expires?: string; signature?: string };

/**
 * A route serving what a presigned URL points at: the signature over the path and expiry is its
 * only authority, checked before anything is read; the workspace comes from the path.
 */
function presignedRoute(route: {
  path: string;
  operationId: string;
  summary: string;
  params: [string, ...string[]];
  response: JsonSchema;
  serve(engine: Engine, params: Record<string, string>, reply: FastifyReply): Promise<unknown>;
}): AnyRoute {
  return publicRoute<Record<string, string>, Signed>({
    public: true,
    method: 'GET',
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    tag: TAG,
    extension: true,
    params: idsParams(...route.params),
    query: signedQuery,
    response: route.response,
    async handle({ params, query, request, reply, server }) {
      refuse(server.signer.check(request.url.split('?')[0] ?? '', query.expires, query.signature));
      const engine = await engineOf(server, params.workspaceId as string);
      reply.header('cache-control', 'private, no-store');
      return route.serve(engine, params, reply);
    },
  });
}

/** Routes without a key: the OpenAPI document, error docs, and the targets of presigned URLs. */
export const publicRoutes: readonly AnyRoute[] = [
  publicRoute({
    public: true,
    method: 'GET',
    path: '/openapi.json',
    operationId: 'docflow.openapi',
    summary: 'This OpenAPI 3.1 document',
    tag: TAG,
    extension: true,
    response: { type: 'object' },
    handle: async ({ server }) => server.openapi(),
  }),
  publicRoute<{ code: string }>({
    public: true,
    method: 'GET',
    path: '/errors/{code}',
    operationId: 'docflow.errors.retrieve',
    summary: "An error code's documentation (the `docUrl` of error bodies)",
    tag: TAG,
    extension: true,
    params: idsParams('code'),
    response: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        status: { type: 'integer' },
        retryable: { type: 'boolean' },
        meaning: { type: 'string' },
      },
    },
    async handle({ params }) {
      const spec = API_ERRORS[params.code as ApiErrorCode];
      if (!Object.hasOwn(API_ERRORS, params.code) || !spec) {
        throw new ApiError('NOT_FOUND', `No error code ${JSON.stringify(params.code)}`);
      }
      return { code: params.code, ...spec };
    },
  }),
  presignedRoute({
    path: '/presigned/files/{workspaceId}/{fileId}',
    operationId: 'docflow.presigned.file',
    summary: "A file's bytes (the target of `presignedUrl`; 403 when expired or altered)",
    params: ['workspaceId', 'fileId'],
    response: { type: 'string', contentEncoding: 'binary' },
    async serve(engine, params, reply) {
      const file = await engine.files.get(params.fileId as string);
      const bytes = await engine.files.download(params.fileId as string);
      const mime = (file.metadata as { mimeType?: unknown }).mimeType;
      reply
        .header('content-type', typeof mime === 'string' ? mime : 'application/octet-stream')
        .header(
          'content-disposition',
          `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        );
      return Buffer.from(bytes);
    },
  }),
  presignedRoute({
    path: '/presigned/parse_runs/{workspaceId}/{runId}/output',
    operationId: 'docflow.presigned.parseOutput',
    summary: "A parse run's output as JSON (the target of `outputUrl`)",
    params: ['workspaceId', 'runId'],
    response: { type: 'object', description: 'ParseRunOutput' },
    serve: async (engine, params) =>
      (await engine.parseRuns.get(params.runId as string)).output ?? null,
  }),
  presignedRoute({
    path: '/presigned/webhook_payloads/{workspaceId}/{deliveryId}',
    operationId: 'docflow.presigned.webhookPayload',
    summary: "A webhook event's payload (the `data` URL of signed-URL deliveries; one hour)",
    params: ['workspaceId', 'deliveryId'],
    response: { type: 'object', description: 'the event payload: a run or resource object' },
    async serve(engine, params) {
      const delivery = await engine.webhookDeliveries.get(params.deliveryId as string);
      return (delivery.event as { payload?: unknown }).payload ?? null;
    },
  }),
];
