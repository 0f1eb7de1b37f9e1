import { defineStep, type StepExecutor } from '@docflow/engine';
import { builtinSteps } from '@docflow/steps';
import { ExtendClient } from 'extend-ai';
import {
  createApiKey,
  createServer,
  type DocflowServer,
  type ServerOptions,
  type ServerRegistry,
  serverStorage,
  type Workspace,
} from '../src/index.ts';

/** A server on loopback with two workspaces of one organization and a key for each. */
export interface TestServer {
  readonly server: DocflowServer;
  readonly registry: ServerRegistry;
  readonly origin: string;
  readonly workspaces: { readonly a: Workspace; readonly b: Workspace };
  readonly keys: { readonly a: string; readonly b: string; readonly org: string };
  /** The service's SDK, unmodified, pointed at the server with `baseUrl`. */
  client(key?: string, options?: Partial<ExtendClient.Options>): ExtendClient;
  /** A plain `fetch` with the key and version header (for what the SDK lacks). */
  fetch(
    path: string,
    init?: RequestInit & { key?: string; headers?: Record<string, string> },
  ): Promise<Response>;
  close(): Promise<void>;
}

/** Starts a server on ':memory:' storage. */
export async function startTestServer(
  options: Partial<Omit<ServerOptions, 'registry'>> = {},
): Promise<TestServer> {
  const storage = serverStorage({ db: ':memory:' });
  await storage.registry.open();
  const org = storage.registry.ensureOrganization('acme');
  const a = storage.registry.ensureWorkspace(org.id, 'alpha');
  const b = storage.registry.ensureWorkspace(org.id, 'beta');
  const keyA = createApiKey(storage.registry, {
    scope: 'workspace',
    organizationId: org.id,
    workspaceId: a.id,
  }).key;
  const keyB = createApiKey(storage.registry, {
    scope: 'workspace',
    organizationId: org.id,
    workspaceId: b.id,
  }).key;
  const keyOrg = createApiKey(storage.registry, {
    scope: 'organization',
    organizationId: org.id,
    name: 'org key',
  }).key;
  // Webhook receivers and file servers of the tests (the server's own presigned URLs too)
  // listen on 127.0.0.1: opted in, as the engine asks.
  const server = await createServer({
    ...storage,
    urlPolicy: { allowLoopback: true },
    documentUrlPolicy: { allowLoopback: true },
    ...options,
  });
  const origin = await server.listen();
  return {
    server,
    registry: storage.registry,
    origin,
    workspaces: { a, b },
    keys: { a: keyA, b: keyB, org: keyOrg },
    client: (key = keyA, clientOptions = {}) =>
      new ExtendClient({ token: key, baseUrl: origin, maxRetries: 0, ...clientOptions }),
    fetch: (path, init = {}) => {
      const { key = keyA, headers = {}, ...rest } = init;
      return fetch(`${origin}${path}`, {
        ...rest,
        headers: {
          authorization: `Bearer ${key}`,
          'x-extend-api-version': '2026-02-09',
          ...headers,
        },
      });
    },
    close: () => server.close(),
  };
}

/** TRIGGER → PARSE: the two-step workflow most tests run. */
export const TWO_STEPS = [
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
  { name: 'parse', type: 'PARSE' },
] as never;

/** TRIGGER → PARSE → HUMAN_REVIEW: runs that stop at NEEDS_REVIEW. */
export const REVIEWED_STEPS = [
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
  { name: 'parse', type: 'PARSE', next: [{ step: 'review' }] },
  { name: 'review', type: 'HUMAN_REVIEW' },
] as never;

/**
 * The shipped executors with a PARSE that waits for `release()` before it parses; `started`
 * resolves when a PARSE has begun. For requests that must be caught in flight.
 */
export function gatedParseSteps(): {
  steps: StepExecutor[];
  started: Promise<void>;
  release(): void;
} {
  let begin: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    begin = resolve;
  });
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const steps = builtinSteps().map((step) =>
    step.type !== 'PARSE'
      ? step
      : defineStep({
          ...step,
          async execute(input, context) {
            begin();
            await released;
            return step.execute(input, context);
          },
        }),
  );
  return { steps, started, release };
}
