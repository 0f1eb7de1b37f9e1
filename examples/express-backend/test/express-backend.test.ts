/**
 * The backend over HTTP: upload, start runs, receive signed webhooks, review; and durability:
 * the server is stopped right after accepting runs and a new one on the same database file
 * finishes them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkflowRun } from '@docflow/engine';
import { afterEach, expect, it, onTestFinished } from 'vitest';
import { type BackendServer, startServer } from '../src/start-server.ts';

/** A temp directory removed when the current test finishes. */
function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const servers: BackendServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close().catch(() => {});
});

async function start(dbPath: string) {
  const server = await startServer({ dbPath });
  servers.push(server);
  return server;
}

async function call<T>(server: BackendServer, method: string, path: string, body?: unknown) {
  const init: RequestInit = { method };
  if (typeof body === 'string') init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  const response = await fetch(`${server.url}${path}`, init);
  return { status: response.status, body: (await response.json()) as T };
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const invoiceWorkflow = {
  name: 'Invoices',
  steps: [
    { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
    { name: 'parse', type: 'PARSE', next: [{ step: 'invoice' }] },
    {
      name: 'invoice',
      type: 'EXTRACT',
      config: {
        extractorConfig: {
          schema: {
            type: 'object',
            properties: {
              invoice_number: { type: ['string', 'null'] },
              total: { type: ['number', 'null'] },
            },
          },
        },
      },
      next: [{ step: 'checks' }],
    },
    {
      name: 'checks',
      type: 'RULE_VALIDATION',
      config: { rules: [{ name: 'under_limit', formula: 'invoice.total <= 1000' }] },
      next: [{ step: 'review', result: 'fail' }],
    },
    { name: 'review', type: 'HUMAN_REVIEW' },
  ],
};

it('serves runs over HTTP and finishes them after a restart on the same SQLite file', async () => {
  const dbPath = join(scratchDir('docflow-backend-'), 'backend.db');
  const first = await start(dbPath);

  const bad = await call<{ code: string; issues: { path: string }[] }>(
    first,
    'POST',
    '/workflows',
    {
      name: 'broken',
      steps: [{ name: 'trigger', type: 'TRIGGER', next: [{ step: 'nowhere' }] }],
    },
  );
  expect(bad.status).toBe(400);
  expect(bad.body.code).toBe('VALIDATION_FAILED');
  expect(bad.body.issues.map((i) => i.path)).toContain('steps[0].next[0].step');

  const workflow = await call<{ id: string }>(first, 'POST', '/workflows', invoiceWorkflow);
  expect(workflow.status).toBe(201);
  const small = await call<{ id: string }>(
    first,
    'POST',
    '/files?name=small.txt',
    'Invoice number: INV-1\nTotal: 120.00 EUR',
  );
  const large = await call<{ id: string }>(
    first,
    'POST',
    '/files?name=large.txt',
    'Invoice number: INV-2\nTotal: 5400.00 EUR',
  );
  const runs: string[] = [];
  for (const file of [small.body, large.body]) {
    const created = await call<WorkflowRun>(first, 'POST', '/workflow_runs', {
      workflow: { id: workflow.body.id },
      file: { id: file.id },
    });
    expect(created.status).toBe(201);
    runs.push(created.body.id);
  }
  // Stop at once: whatever was in flight runs again in the next process.
  await first.close();
  servers.splice(servers.indexOf(first), 1);

  const second = await start(dbPath);
  const [smallRun, largeRun] = runs as [string, string];
  const status = async (id: string) =>
    (await call<WorkflowRun>(second, 'GET', `/workflow_runs/${id}`)).body.status;
  await until(async () => ((await status(smallRun)) === 'PROCESSED' ? true : undefined));
  await until(async () => ((await status(largeRun)) === 'NEEDS_REVIEW' ? true : undefined));

  const waiting = await call<{ data: WorkflowRun[] }>(
    second,
    'GET',
    '/workflow_runs?status=NEEDS_REVIEW',
  );
  expect(waiting.body.data.map((r) => r.id)).toEqual([largeRun]);

  const reviewed = await call<WorkflowRun>(second, 'POST', `/workflow_runs/${largeRun}/review`, {
    decision: 'approve',
    reviewer: 'cfo@example.com',
  });
  expect(reviewed.status).toBe(200);
  expect(reviewed.body.status).toBe('PROCESSED');
  const again = await call<{ code: string }>(second, 'POST', `/workflow_runs/${largeRun}/review`, {
    decision: 'approve',
    reviewer: 'cfo@example.com',
  });
  expect(again.status).toBe(409);

  // The backend received and verified its own webhook for the reviewed run.
  await until(async () =>
    second.events.some((e) => e.eventType === 'workflow_run.completed' && e.payload.id === largeRun)
      ? true
      : undefined,
  );
  const forged = await fetch(`${second.url}/webhooks/docflow`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-request-timestamp': String(Math.floor(Date.now() / 1000)),
      'x-service-request-signature': '0'.repeat(64),
    },
    body: '{"eventId":"evt_forged","eventType":"workflow_run.completed","payload":{}}',
  });
  expect(forged.status).toBe(401);
}, 90_000);
