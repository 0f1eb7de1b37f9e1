/**
 * Starts the backend: docflow on SQLite, the express app, and the backend's own webhook endpoint
 * (created on first boot, its URL updated on every boot since the port may change).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, type Engine, type EngineEvent } from '@docflow/engine';
import { builtinSteps } from '@docflow/steps';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { createApp } from './create-app.ts';

/** A running backend. */
export interface BackendServer {
  readonly url: string;
  readonly engine: Engine;
  /** Authentic webhook events received by this process, in order. */
  readonly events: EngineEvent[];
  /** Stops accepting requests, then stops the engine (in-flight steps run again on next start). */
  close(): Promise<void>;
}

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** The SQLite file; the webhook endpoint's id and secret are kept beside it. */
  readonly dbPath: string;
  /** Default 0: any free port. */
  readonly port?: number;
  readonly log?: (line: string) => void;
}

interface EndpointRecord {
  readonly endpointId: string;
  readonly signingSecret: string;
}

/** Starts the backend and returns once it accepts requests. */
export async function startServer(options: ServerOptions): Promise<BackendServer> {
  const log = options.log ?? (() => {});
  const engine = createEngine({
    storage: sqliteStorage({ path: options.dbPath }),
    steps: builtinSteps(),
    // This backend receives its own webhooks on 127.0.0.1, which the URL policy refuses unless
    // told: a real deployment points endpoints at a public or private host and drops this.
    webhooks: { urlPolicy: { allowLoopback: true } },
  });
  await engine.start(); // recovers the runs a previous process left unfinished
  const events: EngineEvent[] = [];
  let endpoint: EndpointRecord | undefined;
  const app = createApp(engine, {
    signingSecret: () => endpoint?.signingSecret ?? '',
    onEvent: (event) => {
      if (events.some((e) => e.eventId === event.eventId)) return; // at-least-once delivery
      events.push(event);
      log(
        `webhook ${event.eventType} ${String(event.payload.id ?? event.payload.workflowRunId ?? '')}`,
      );
    },
    subscribe: async (workflowId) => {
      if (!endpoint) return;
      await engine.webhookSubscriptions.create({
        webhookEndpointId: endpoint.endpointId,
        resourceType: 'workflow',
        resourceId: workflowId,
        enabledEvents: [
          'workflow_run.completed',
          'workflow_run.failed',
          'workflow_run.needs_review',
        ],
      });
    },
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // The signing secret is shown once, at creation: keep it (here in a file beside the database;
  // in production, in your secret store).
  const recordPath = `${options.dbPath}.webhook.json`;
  const hookUrl = `${url}/webhooks/docflow`;
  if (existsSync(recordPath)) {
    endpoint = JSON.parse(readFileSync(recordPath, 'utf8')) as EndpointRecord;
    await engine.webhookEndpoints.update(endpoint.endpointId, { url: hookUrl });
  } else {
    const created = await engine.webhookEndpoints.create({
      url: hookUrl,
      name: 'this backend',
      enabledEvents: [],
    });
    endpoint = { endpointId: created.id, signingSecret: created.signingSecret };
    writeFileSync(recordPath, JSON.stringify(endpoint), { mode: 0o600 });
  }
  log(`listening on ${url} (database ${options.dbPath})`);
  return {
    url,
    engine,
    events,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await engine.stop();
    },
  };
}
