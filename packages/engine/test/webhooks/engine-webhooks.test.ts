import { createEngine, type Engine } from '@docflow/engine';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../../src/events/event-types.ts';
import { verifyWebhook } from '../../src/webhooks/sign.ts';
import { fakeStep, linear } from '../helpers.ts';
import { type Receiver, startReceiver } from './helpers.ts';

vi.setConfig({ testTimeout: 30_000 });

describe('webhooks through createEngine', () => {
  let engine: Engine | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await engine?.stop();
    await receiver?.close();
  });

  it('delivers lifecycle events globally and run events through the workflow subscription', async () => {
    receiver = await startReceiver(() => ({ status: 200 }));
    engine = createEngine({
      steps: [fakeStep('PARSE', () => ({ chunks: [] }), [])],
      // The receiver listens on loopback, which the workflow URL policy refuses unless told.
      webhooks: {
        schedule: [10, 20],
        jitter: 0,
        pollIntervalMs: 50,
        urlPolicy: { allowLoopback: true },
      },
    });
    await engine.start();
    const endpoint = await engine.webhookEndpoints.create({
      url: receiver.url,
      enabledEvents: ['workflow.created', 'workflow.deployed'],
    });
    const wf = await engine.workflows.create({ name: 'Hooks', steps: linear('PARSE') });
    await engine.webhookSubscriptions.create({
      webhookEndpointId: endpoint.id,
      resourceType: 'workflow',
      resourceId: wf.id,
      enabledEvents: ['workflow_run.completed', 'workflow_run.step_run.processed'],
    });
    await engine.workflows.deploy(wf.id);
    const file = await engine.files.upload({ name: 'a.txt', data: 'hello' });
    const run = await engine.workflowRuns.create({
      workflow: { id: wf.id },
      file: { id: file.id },
    });
    expect((await engine.workflowRuns.waitFor(run.id, { timeoutMs: 10_000 })).status).toBe(
      'PROCESSED',
    );
    await engine.idle({ timeoutMs: 20_000 });
    // Webhooks are sent in the background: wait until none is pending.
    const deadline = Date.now() + 20_000;
    while ((await engine.webhookDeliveries.list({ status: 'pending' })).data.length > 0) {
      if (Date.now() > deadline) throw new Error('webhooks still pending');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const events = receiver.requests.map((r) => {
      verifyWebhook(r.body, r.headers, endpoint.signingSecret);
      return JSON.parse(r.body) as EngineEvent;
    });
    const types = events.map((e) => e.eventType);
    expect(types).toContain('workflow.created');
    expect(types).toContain('workflow.deployed');
    expect(types).toContain('workflow_run.completed');
    expect(types).toContain('workflow_run.step_run.processed');
    expect(types.every((t) => t !== 'workflow_run.failed')).toBe(true);
    const completed = events.find((e) => e.eventType === 'workflow_run.completed');
    expect(completed?.payload).toMatchObject({ id: run.id, status: 'PROCESSED' });
    expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
    const deliveries = await engine.webhookDeliveries.list({ maxPageSize: 100 });
    expect(deliveries.data.map((d) => d.status).every((s) => s === 'succeeded')).toBe(true);
    expect(deliveries.data).toHaveLength(events.length);
  });
});
