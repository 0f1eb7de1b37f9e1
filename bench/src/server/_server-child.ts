/**
 * The process under load in `http-vs-library.ts`: a docflow server on SQLite, a bare Fastify
 * route answering the same bytes, and (on request) the library's `workflowRuns.create` loop, so
 * that the HTTP side and its peers share one process and one machine. Driven over IPC.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEngine, type Engine } from '@docflow/engine';
import { createApiKey, createServer, serverStorage } from '@docflow/server';
import { builtinSteps } from '@docflow/steps';
import { sqliteStorage } from '@docflow/storage/sqlite';
import Fastify from 'fastify';
import { scratchDir } from '../harness.ts';

const TWO_STEPS = [
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
  { name: 'parse', type: 'PARSE' },
];

const dir = scratchDir('docflow-bench-server-');
const storage = serverStorage({ db: join(dir, 'registry.db') });
await storage.registry.open();
const org = storage.registry.ensureOrganization('bench');
const ws = storage.registry.ensureWorkspace(org.id, 'bench');
const { key } = createApiKey(storage.registry, {
  scope: 'workspace',
  organizationId: org.id,
  workspaceId: ws.id,
});
const server = await createServer({ ...storage, limits: { rateLimit: false } });
const origin = await server.listen();
const engine = await server.engineFor(ws.id);

const wf = await engine.workflows.create({ name: 'bench', steps: TWO_STEPS as never });
await engine.workflows.deploy(wf.id);
const file = await engine.files.upload({
  name: 'invoice.txt',
  data: 'Invoice 42\nTotal: 99.50 EUR\n',
});
const run = await engine.workflowRuns.create({ workflow: { id: wf.id }, file: { id: file.id } });
await engine.workflowRuns.waitFor(run.id);
// A run waiting for review: active, so the engine keeps its snapshot in memory (a finished run
// is read from SQLite on every GET).
const reviewWf = await engine.workflows.create({
  name: 'review',
  steps: [
    ...TWO_STEPS.slice(0, 1),
    { name: 'parse', type: 'PARSE', next: [{ step: 'review' }] },
    { name: 'review', type: 'HUMAN_REVIEW' },
  ] as never,
});
await engine.workflows.deploy(reviewWf.id);
const waiting = await engine.workflowRuns.create({
  workflow: { id: reviewWf.id },
  file: { id: file.id },
});
await engine.workflowRuns.waitFor(waiting.id);
// The bare route answers exactly the bytes the server answers for each run.
const bytesOf = new Map<string, string>();
for (const id of [run.id, waiting.id])
  bytesOf.set(id, JSON.stringify(await engine.workflowRuns.get(id)));
const bytes = bytesOf.get(run.id) as string;

const bare = Fastify({ logger: false });
bare.get<{ Params: { id: string } }>('/workflow_runs/:id', async (request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8');
  return bytesOf.get(request.params.id);
});
const bareOrigin = await bare.listen({ port: 0, host: '127.0.0.1' });

// The library's peer: its own engine on its own SQLite file, with the same executors.
const library: Engine = createEngine({
  storage: sqliteStorage({ path: join(dir, 'library.db') }),
  steps: builtinSteps(),
});
await library.start();
const libraryWf = await library.workflows.create({ name: 'bench', steps: TWO_STEPS as never });
await library.workflows.deploy(libraryWf.id);
const libraryFile = await library.files.upload({
  name: 'invoice.txt',
  data: 'Invoice 42\nTotal: 99.50 EUR\n',
});

/**
 * `concurrency` callers create `count` runs, which then finish: runs/s counts until the last is
 * done; creates/s counts until the last is created (a backlog, not throughput).
 */
async function libraryRuns(concurrency: number, count: number) {
  let started = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < count) {
        started++;
        await library.workflowRuns.create({
          workflow: { id: libraryWf.id },
          file: { id: libraryFile.id },
        });
      }
    }),
  );
  const created = performance.now() - t0;
  await library.idle();
  return {
    createsPerSecond: (count * 1000) / created,
    runsPerSecond: (count * 1000) / (performance.now() - t0),
  };
}

process.on('message', async (message: { type: string; concurrency?: number; count?: number }) => {
  if (message.type === 'library') {
    const rates = await libraryRuns(message.concurrency ?? 32, message.count ?? 1000);
    process.send?.({ type: 'library', ...rates });
  } else if (message.type === 'idle') {
    // Runs created in a round finish before the next round starts, on both sides.
    await Promise.all([engine.idle(), library.idle()]);
    process.send?.({ type: 'idle' });
  } else if (message.type === 'cpu') {
    // This process's CPU time so far: per request, a cost that the machine's load does not skew.
    const { user, system } = process.cpuUsage();
    process.send?.({ type: 'cpu', micros: user + system });
  } else if (message.type === 'stop') {
    await bare.close();
    await library.stop();
    await server.close();
    process.exit(0);
  }
});

process.send?.({
  type: 'ready',
  origin,
  bareOrigin,
  key,
  runId: run.id,
  waitingId: waiting.id,
  workflowId: wf.id,
  fileId: file.id,
  bytes: bytes.length,
});
