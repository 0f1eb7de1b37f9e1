import type { Engine } from '@docflow/engine';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { JsonSchema } from '../http/request-validation.ts';
import type { UrlSigner } from '../presign/url-signer.ts';
import type { Workspace } from '../registry/registry.ts';

/** What every handler may use besides its request. */
export interface ServerContext {
  /** The started engine of a workspace, or undefined when no workspace has that id. */
  engineFor(workspaceId: string): Promise<Engine | undefined>;
  /** The OpenAPI document of every route. */
  openapi(): unknown;
  readonly signer: UrlSigner;
  /** The origin URLs handed to this request's caller start with. */
  origin(request: FastifyRequest): string;
  /** How long a synchronous endpoint waits for its run, in ms (the interface: 5 minutes). */
  readonly syncTimeoutMs: number;
  readonly uploadBytes: number;
  /** Stops counting the body timeout once a handler has read the whole body. */
  bodyComplete(request: FastifyRequest): void;
}

/** What a handler of a workspace route receives. */
export interface RouteContext<P, Q, B> {
  readonly engine: Engine;
  readonly workspace: Workspace;
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly server: ServerContext;
}

/** What a handler of a public route (no key) receives. */
export interface PublicRouteContext<P, Q> {
  readonly params: P;
  readonly query: Q;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly server: ServerContext;
}

interface RouteBase {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** OpenAPI style: `/files/{id}`. */
  readonly path: string;
  /** The SDK method it serves (`files.retrieve`), or a docflow name for extensions. */
  readonly operationId: string;
  readonly summary: string;
  readonly tag: string;
  readonly params?: JsonSchema;
  /** Omitted: the route takes no query parameters, and any is refused. */
  readonly query?: JsonSchema;
  /** Shape of the 200 response, for the OpenAPI document (responses are not filtered by it). */
  readonly response: JsonSchema;
  /** A docflow addition to the HTTP interface. */
  readonly extension?: boolean;
  /** The SDK has no method for it (it calls every other workspace route). */
  readonly notInSdk?: boolean;
  /** Deprecated in the interface (kept for SDK methods that still call it). */
  readonly deprecated?: boolean;
}

/** A route of a workspace: key, version header and workspace are checked before `handle`. */
export interface WorkspaceRoute<P = never, Q = never, B = never> extends RouteBase {
  readonly public?: false;
  /** A JSON body's schema; `'multipart'` for uploads (then `multipart` documents the fields). */
  readonly body?: JsonSchema | 'multipart';
  readonly multipart?: JsonSchema;
  handle(context: RouteContext<P, Q, B>): Promise<unknown>;
}

/** A route anyone may call (the signature in the URL, or nothing, is its authority). */
export interface PublicRoute<P = never, Q = never> extends RouteBase {
  readonly public: true;
  handle(context: PublicRouteContext<P, Q>): Promise<unknown>;
}

/** Any route of the table. */
// biome-ignore lint/suspicious/noExplicitAny: the table holds routes of every parameter type.
export type AnyRoute = WorkspaceRoute<any, any, any> | PublicRoute<any, any>;

/** Types a workspace route's handler by its parts. */
export function workspaceRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  route: WorkspaceRoute<P, Q, B>,
): WorkspaceRoute<P, Q, B> {
  return route;
}

/** Types a public route's handler by its parts. */
export function publicRoute<P = Record<string, never>, Q = Record<string, never>>(
  route: PublicRoute<P, Q>,
): PublicRoute<P, Q> {
  return route;
}
