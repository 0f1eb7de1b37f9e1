import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, type Engine, verifyWebhook } from '@docflow/engine';
import { fakeStep } from '@docflow/engine/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { steps } from '../helpers.ts';

interface Received {
  readonly body: string;
  readonly headers: IncomingMessage['headers'];
}

async function receiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ body, headers: req.headers });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, server };
}

let engine: Engine;
let server: Server | undefined;
afterEach(async () => {
  await engine?.stop();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
});

const definition = (config: Record<string, unknown>) =>
  steps([
    { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
    { name: 'parse', type: 'PARSE', next: [{ step: 'respond' }] },
    { name: 'respond', type: 'WEBHOOK_RESPONSE', config },
  ]);

describe('WEBHOOK_RESPONSE', () => {
  it('delivers the JSONata-shaped result to the step url, signed with the secret deploy returned', async () => {
    const r = await receiver();
    server = r.server;
    engine = createEngine({
      steps: [fakeStep('PARSE', { chunks: [{ content: 'hello' }] })],
      webhooks: { urlPolicy: { allowLoopback: true } },
    });
    await engine.start();
    const wf = await engine.workflows.create({
      name: 'respond',
      steps: definition({
        url: r.url,
        body: '{ "status": run.status, "text": outputs.parse.chunks[0].content }',
      }),
    });
    const version = await engine.workflows.deploy(wf.id);
    expect(version.createdEndpoints).toHaveLength(1);
    const secret = version.createdEndpoints[0]?.endpoint.signingSecret as string;
    const run = await engine.workflowRuns.create({ workflow: { id: wf.id }, file: { text: 'x' } });
    expect((await engine.workflowRuns.waitFor(run.id)).status).toBe('PROCESSED');
    await engine.idle({ timeoutMs: 10_000 });
    expect(r.received).toHaveLength(1);
    const got = r.received[0] as Received;
    expect(() =>
      verifyWebhook(got.body, got.headers as Record<string, string>, secret),
    ).not.toThrow();
    const event = JSON.parse(got.body);
    expect(event.eventType).toBe('workflow_run.webhook_response');
    expect(event.payload).toMatchObject({
      workflowRunId: run.id,
      stepName: 'respond',
      body: { text: 'hello' },
    });
  });

  it('without a url, goes to the endpoints subscribed to the workflow', async () => {
    const r = await receiver();
    server = r.server;
    engine = createEngine({
      steps: [fakeStep('PARSE', { chunks: [] })],
      webhooks: { urlPolicy: { allowLoopback: true } },
    });
    await engine.start();
    const wf = await engine.workflows.create({ name: 'subscribed', steps: definition({}) });
    const deployed = await engine.workflows.deploy(wf.id);
    expect(deployed.createdEndpoints).toEqual([]);
    const endpoint = await engine.webhookEndpoints.create({ url: r.url, name: 'receiver' });
    await engine.webhookSubscriptions.create({
      webhookEndpointId: endpoint.id,
      resourceType: 'workflow',
      resourceId: wf.id,
      enabledEvents: ['workflow_run.completed'],
    });
    const run = await engine.workflowRuns.create({ workflow: { id: wf.id }, file: { text: 'x' } });
    await engine.workflowRuns.waitFor(run.id);
    await engine.idle({ timeoutMs: 10_000 });
    const types = r.received.map((x) => JSON.parse(x.body).eventType).sort();
    expect(types).toEqual(['workflow_run.completed', 'workflow_run.webhook_response']);
    for (const x of r.received) {
      expect(() =>
        verifyWebhook(x.body, x.headers as Record<string, string>, endpoint.signingSecret),
      ).not.toThrow();
    }
  });
});
