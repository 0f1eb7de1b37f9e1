/**
 * The API process: accepts documents over HTTP and creates runs, executing no step itself
 * (`concurrency: 0`: every step goes to the queue, where the workers claim it). Any number of
 * API processes may run beside each other; each sees every run on the shared database.
 *
 * POST /runs   body: the document's text   → 201 { id }
 * GET  /runs/:id                           → 200 { id, status }
 */
import { createServer } from 'node:http';
import { createEngine, isEngineError } from '@docflow/engine';
import { builtinSteps } from '@docflow/steps';
import { postgresStorage } from '@docflow/storage/postgres';
import { settings } from './settings.ts';

const { url, schema, leaseMs } = settings();
const engine = createEngine({
  storage: postgresStorage({ connectionString: url }, { schema }),
  // The executors validate workflows here; with no slot, none runs in this process.
  steps: builtinSteps(),
  scheduling: { concurrency: 0, leaseMs },
  webhooks: { enabled: false },
});
await engine.start();

// The workflow every upload runs: parse the text, extract its total (the offline provider).
const workflow = await engine.workflows.create({
  name: 'multi-process intake',
  steps: [
    { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
    { name: 'parse', type: 'PARSE', next: [{ step: 'fields' }] },
    {
      name: 'fields',
      type: 'EXTRACT',
      config: {
        extractorConfig: {
          schema: { type: 'object', properties: { total: { type: 'number' } } },
        },
      },
    },
  ],
});
await engine.workflows.deploy(workflow.id);

const server = createServer((req, res) => {
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    void (async () => {
      try {
        if (req.method === 'POST' && req.url === '/runs') {
          const run = await engine.workflowRuns.create({
            workflow: { id: workflow.id },
            file: { text: Buffer.concat(chunks).toString('utf8'), name: 'upload.txt' },
          });
          send(201, { id: run.id });
          return;
        }
        const match = /^\/runs\/([\w-]+)$/.exec(req.url ?? '');
        if (req.method === 'GET' && match) {
          const run = await engine.workflowRuns.get(match[1] as string);
          send(200, { id: run.id, status: run.status });
          return;
        }
        send(404, { error: 'not found' });
      } catch (error) {
        if (isEngineError(error, 'NOT_FOUND')) send(404, { error: error.message });
        else send(500, { error: String(error) });
      }
    })();
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  console.log(`api listening on http://127.0.0.1:${port}`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close();
    void engine.stop().finally(() => process.exit(0));
  });
}
