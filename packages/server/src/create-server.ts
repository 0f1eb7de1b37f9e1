import { createHmac, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  createEngine,
  type Engine,
  type EngineOptions,
  type StepExecutor,
  type UrlPolicyOptions,
} from '@docflow/engine';
import type { StorageAdapter } from '@docflow/storage';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { authenticate, checkApiVersion } from './auth/authenticate.ts';
import { ApiError, errorBody } from './http/api-error.ts';
import { BodyTimeouts } from './http/body-timeouts.ts';
import {
  API_VERSION,
  DEFAULT_SERVER_HEADER_WORD,
  REQUEST_ID_HEADER,
  requestHeaderNames,
} from './http/header-names.ts';
import { fastifyValidatorCompiler } from './http/request-validation.ts';
import { type IssueLocation, toApiError } from './http/to-api-error.ts';
import { openApiDocument } from './openapi/openapi-document.ts';
import { presignedWebhookPayloadPath } from './presign/presigned-paths.ts';
import { createUrlSigner } from './presign/url-signer.ts';
import type { ServerRegistry, Workspace } from './registry/registry.ts';
import type { AnyRoute, RouteContext, ServerContext } from './routes/route.ts';
import { serverRoutes } from './routes/server-routes.ts';
import { WorkspaceEngines, type WorkspaceScope } from './workspaces/workspace-engines.ts';

/** Limits of what a request may ask. Every field has a default. */
export interface ServerLimits {
  /** Largest upload, counted while it streams in; default 100 MB. */
  readonly uploadBytes?: number;
  /** Largest JSON body; default 10 MB. */
  readonly jsonBytes?: number;
  /** A body that sends nothing for this long is cut off (400 REQUEST_TIMEOUT); default 30 s. */
  readonly bodyTimeoutMs?: number;
  /** How long POST /parse, /extract, /classify and /split wait; default 5 minutes (docs/reference/resources.md). */
  readonly syncTimeoutMs?: number;
  /** Requests per key per window; `false` turns rate limiting off. Default 1000 per 10 s. */
  readonly rateLimit?: { readonly max: number; readonly windowMs: number } | false;
}

/** Options of {@link createServer}. */
export interface ServerOptions {
  /** Organizations, workspaces and API key hashes; opened by the server, closed by `close()`. */
  readonly registry: ServerRegistry;
  /** The storage of one workspace's engine (a SQLite file each, a Postgres schema each, …). */
  readonly workspaceStorage: (workspace: Workspace) => StorageAdapter;
  /** Executors of every workspace's engine; default `builtinSteps()` from `@docflow/steps`. */
  readonly steps?: readonly StepExecutor[];
  /**
   * Where the engines may send requests: webhook deliveries, and EXTERNAL_DATA_VALIDATION when
   * the server makes the executors itself. The engine's default refuses loopback, link-local
   * and cloud-metadata addresses; `{ allowLoopback: true }` lets a local receiver in.
   */
  readonly urlPolicy?: UrlPolicyOptions;
  /**
   * Where runs' document URLs (`file: { url }`, given by API clients) may be fetched from: the
   * engine's `document` policy refuses loopback, private, link-local and metadata addresses;
   * a server whose clients pass its own presigned URLs on a private host opts in here.
   */
  readonly documentUrlPolicy?: UrlPolicyOptions;
  /** More engine options per workspace (scheduling, retry, …). */
  readonly engineOptions?: (workspace: Workspace) => Omit<EngineOptions, 'storage' | 'steps'>;
  /**
   * The word in header names (`x-<word>-api-version`, `x-<word>-workspace-id` on requests,
   * `x-<word>-request-signature` … on webhooks). Default `extend`, which the service's SDK sends;
   * The interface writes `service`.
   */
  readonly headerWord?: string;
  /**
   * The origin clients reach the server by, for URLs the server hands out (presigned URLs,
   * webhook payload URLs). Default: the origin of each request, and for webhooks the address
   * the server listens on.
   */
  readonly publicUrl?: string;
  readonly limits?: ServerLimits;
  /** Fastify's logger: `false` (default), `true` (pino JSON lines on stdout) or pino options. */
  readonly logger?: boolean | Record<string, unknown>;
}

/** A running (or ready to run) server. */
export interface DocflowServer {
  /** The Fastify instance (`inject` for tests without a socket). */
  readonly app: FastifyInstance;
  /** Listens (default 127.0.0.1, port 0 for any free one); resolves to the origin. */
  listen(options?: { port?: number; host?: string }): Promise<string>;
  /** The origin while listening. */
  readonly origin: string | undefined;
  /** The started engine of a workspace (embedding, tests). */
  engineFor(workspaceId: string): Promise<Engine>;
  /**
   * Stops taking requests, lets the ones in flight finish, then stops every engine (their
   * unfinished work stays in storage for the next start) and closes the registry.
   */
  close(): Promise<void>;
}

const DEFAULTS = {
  uploadBytes: 100 * 1024 * 1024,
  jsonBytes: 10 * 1024 * 1024,
  bodyTimeoutMs: 30_000,
  syncTimeoutMs: 5 * 60_000,
  rateLimit: { max: 1000, windowMs: 10_000 },
} as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller and engine of a workspace route, set before the body is read. */
    docflow?: { workspace: Workspace; scope: WorkspaceScope; keyId: string };
  }
}

function toFastifyPath(path: string): string {
  return path.replace(/\{([A-Za-z]+)\}/g, ':$1');
}

/**
 * Creates the HTTP server of the interface over one engine per workspace. Opens the
 * registry and starts the engine of every workspace it knows, so their unfinished runs resume.
 *
 * @example
 * const server = await createServer({ ...serverStorage({ db: 'docflow.db' }) });
 * await server.listen({ port: 8080 });
 */
export async function createServer(options: ServerOptions): Promise<DocflowServer> {
  const limits = { ...DEFAULTS, ...(options.limits ?? {}) };
  const headerWord = options.headerWord ?? DEFAULT_SERVER_HEADER_WORD;
  const names = requestHeaderNames(headerWord);
  const registry = options.registry;
  await registry.open();
  const secret = registry.serverSecret();
  const signer = createUrlSigner(secret);
  const steps =
    options.steps ??
    (await import('@docflow/steps')).builtinSteps(
      options.urlPolicy ? { processors: { urlPolicy: options.urlPolicy } } : {},
    );
  let origin: string | undefined;
  const publicOrigin = () => options.publicUrl ?? origin;

  const engines = new WorkspaceEngines((workspace) => {
    const extra = options.engineOptions?.(workspace) ?? {};
    const storage = options.workspaceStorage(workspace);
    const engine = createEngine({
      ...extra,
      storage,
      steps,
      ...(options.documentUrlPolicy
        ? { downloads: { ...(extra.downloads ?? {}), urlPolicy: options.documentUrlPolicy } }
        : {}),
      // Each workspace's run secrets are sealed with a key of its own, kept across restarts.
      secretKey: createHmac('sha256', secret).update(`run-secrets:${workspace.id}`).digest(),
      webhooks: {
        ...(options.urlPolicy ? { urlPolicy: options.urlPolicy } : {}),
        ...(extra.webhooks ?? {}),
        headerWord,
        signedUrlProvider: (_event, context) => {
          const base = publicOrigin();
          if (base === undefined) throw new Error('the server is not listening');
          return (
            base +
            signer.sign(
              presignedWebhookPayloadPath(workspace.id, context.deliveryId),
              context.expiresAt,
            )
          );
        },
      },
    });
    return { engine };
  });
  await engines.startAll(registry.listWorkspaces());

  // Request ids: a random prefix per server and a counter (a random draw per request costs more
  // than the rest of a small request's bookkeeping).
  const idPrefix = `req_${randomBytes(6).toString('hex')}`;
  let requests = 0;
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: () => `${idPrefix}${(requests++).toString(36).padStart(6, '0')}`,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: limits.jsonBytes,
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(fastifyValidatorCompiler);
  // Declared up front, so that setting it does not change the shape of every request object.
  app.decorateRequest('docflow', undefined);
  const bodyTimeouts = new BodyTimeouts(limits.bodyTimeoutMs);

  const requestOrigin = (request: FastifyRequest) =>
    options.publicUrl ?? `${request.protocol}://${request.host}`;

  const routes: readonly AnyRoute[] = serverRoutes;
  let document: Record<string, unknown> | undefined;
  const server: ServerContext = {
    signer,
    origin: requestOrigin,
    syncTimeoutMs: limits.syncTimeoutMs,
    uploadBytes: limits.uploadBytes,
    bodyComplete: (request) => bodyTimeouts.complete(request),
    async engineFor(workspaceId) {
      const workspace = registry.getWorkspace(workspaceId);
      return workspace ? engines.get(workspace) : undefined;
    },
    openapi: () => {
      document ??= openApiDocument(routes, { names, version: API_VERSION });
      return document;
    },
  };

  app.setErrorHandler((error, request, reply) => {
    const location: IssueLocation = request.method === 'GET' ? 'query' : 'body';
    const apiError = toApiError(error, location);
    if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    if (apiError.retryAfterSeconds !== undefined) {
      reply.header('retry-after', String(apiError.retryAfterSeconds));
    }
    reply.code(apiError.status).send(errorBody(apiError, request.id, requestOrigin(request)));
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new ApiError(
      'NOT_FOUND',
      `No route ${request.method} ${request.url.split('?')[0]}`,
    );
    reply.code(404).send(errorBody(error, request.id, requestOrigin(request)));
  });

  // Hooks on every request are synchronous: each async hook is a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    bodyTimeouts.start(request, reply);
    done();
  });
  await app.register(multipart, {
    limits: { fileSize: limits.uploadBytes, files: 1, fields: 10, parts: 12 },
  });
  if (limits.rateLimit !== false) {
    const { max, windowMs } = limits.rateLimit;
    await app.register(rateLimit, {
      global: true,
      // After the key is known (onRequest), before the body is read.
      hook: 'preParsing',
      max,
      timeWindow: windowMs,
      keyGenerator: (request) => request.docflow?.keyId ?? `ip:${request.ip}`,
      errorResponseBuilder: (_request, context) =>
        new ApiError(
          'RATE_LIMITED',
          `Too many requests: at most ${context.max} per ${Math.round(windowMs / 1000)} s for this key; retry in ${context.after}`,
          { retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)) },
        ),
    });
  }

  for (const route of routes) {
    const schema: Record<string, unknown> = {
      querystring: route.query ?? { type: 'object', additionalProperties: false },
    };
    if (route.params) schema.params = route.params;
    if (!route.public && route.body !== undefined && route.body !== 'multipart') {
      schema.body = route.body;
    }
    const readsBody = route.method !== 'GET' && !route.public;
    app.route({
      method: route.method,
      url: toFastifyPath(route.path),
      schema,
      // JSON bodies are read by now; multipart ones are read by their handler.
      ...(readsBody && route.body !== 'multipart'
        ? {
            preValidation: (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
              bodyTimeouts.complete(request);
              done();
            },
          }
        : {}),
      ...(route.public
        ? {}
        : {
            // A callback hook: no promise per request once the workspace's engine is started.
            onRequest: (
              request: FastifyRequest,
              _reply: FastifyReply,
              done: (error?: Error) => void,
            ) => {
              let caller: ReturnType<typeof authenticate>;
              try {
                caller = authenticate(registry, names, request.headers);
                checkApiVersion(names, request.headers);
              } catch (error) {
                done(error as Error);
                return;
              }
              // The common case, a started engine, creates no closure and no promise.
              const started = engines.started(caller.workspace.id);
              if (started) {
                request.docflow = {
                  workspace: caller.workspace,
                  scope: started,
                  keyId: caller.key.id,
                };
                done();
                return;
              }
              engines.scope(caller.workspace).then((scope) => {
                request.docflow = { workspace: caller.workspace, scope, keyId: caller.key.id };
                done();
              }, done);
            },
          }),
      handler: route.public
        ? (request, reply) =>
            route.handle({ params: request.params, query: request.query, request, reply, server })
        : (request, reply) => {
            const scope = request.docflow;
            if (!scope) throw new ApiError('INTERNAL_ERROR', 'request scope missing');
            const context: RouteContext<unknown, unknown, unknown> = {
              params: request.params,
              query: request.query,
              body: request.body,
              request,
              reply,
              server,
              engine: scope.scope.engine,
              workspace: scope.workspace,
            };
            return route.handle(context as never);
          },
    });
  }
  await app.ready();

  return {
    app,
    get origin() {
      return origin;
    },
    async listen(listenOptions = {}) {
      await app.listen({ port: listenOptions.port ?? 0, host: listenOptions.host ?? '127.0.0.1' });
      const address = app.server.address() as AddressInfo;
      const host =
        address.address === '0.0.0.0' || address.address === '::'
          ? '127.0.0.1'
          : address.family === 'IPv6'
            ? `[${address.address}]`
            : address.address;
      origin = `http://${host}:${address.port}`;
      return origin;
    },
    async engineFor(workspaceId) {
      const workspace = registry.getWorkspace(workspaceId);
      if (!workspace) throw new Error(`no workspace ${workspaceId}`);
      return engines.get(workspace);
    },
    async close() {
      // Connections kept alive would hold close() open until their idle timeout: close each as
      // soon as its last request is answered.
      const idle = setInterval(() => app.server.closeIdleConnections(), 20);
      try {
        await app.close();
      } finally {
        clearInterval(idle);
      }
      await engines.stopAll();
      await registry.close();
    },
  };
}
