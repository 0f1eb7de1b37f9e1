import { ExtendClient } from 'extend-ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, TWO_STEPS } from '../helpers.ts';
import { startReceiver } from '../receiver.ts';

let t: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  // The receiver listens on 127.0.0.1: startTestServer lets the URL policy through to it.
  t = await startTestServer();
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const eventOf = (type: string) => (r: { body: string }) =>
  (JSON.parse(r.body) as { eventType: string }).eventType === type;

describe('webhooks through the SDK', () => {
  it('manages endpoints and subscriptions', async () => {
    const client = t.client();
    const endpoint = await client.webhookEndpoints.create({
      url: receiver.url,
      name: 'crud',
      enabledEvents: ['workflow.created'],
      apiVersion: '2026-02-09',
    });
    expect(endpoint).toMatchObject({
      object: 'webhook_endpoint',
      status: 'enabled',
      advancedOptions: null,
    });
    expect(endpoint.signingSecret).toEqual(expect.any(String));
    const got = await client.webhookEndpoints.retrieve(endpoint.id);
    expect((got as unknown as Record<string, unknown>).signingSecret).toBeUndefined();
    const updated = await client.webhookEndpoints.update(endpoint.id, {
      name: 'renamed',
      advancedOptions: { payload: { format: 'json', urlThresholdBytes: 4096 } },
    });
    expect(updated).toMatchObject({
      name: 'renamed',
      advancedOptions: { payload: { format: 'json', urlThresholdBytes: 4096 } },
    });
    expect((await client.webhookEndpoints.list()).data.map((e) => e.id)).toContain(endpoint.id);
    expect((await client.webhookEndpoints.list({ status: 'enabled' })).data).toContainEqual(
      expect.objectContaining({ id: endpoint.id }),
    );
    expect((await client.webhookEndpoints.list({ status: 'disabled' })).data).toEqual([]);
    const second = await client.webhookEndpoints.create({
      url: receiver.url,
      name: 'second',
      enabledEvents: [],
      apiVersion: '2026-02-09',
    });
    const oldestFirst = (await client.webhookEndpoints.list({ sortDir: 'asc' })).data.map(
      (e) => e.id,
    );
    expect(oldestFirst.indexOf(endpoint.id)).toBeLessThan(oldestFirst.indexOf(second.id));

    const wf = await client.workflows.create({ name: 'Hooked' });
    const subscription = await client.webhookSubscriptions.create({
      webhookEndpointId: endpoint.id,
      resourceType: 'workflow',
      resourceId: wf.id,
      enabledEvents: ['workflow_run.completed'],
    });
    expect(subscription).toMatchObject({ object: 'webhook_subscription', resourceId: wf.id });
    expect((await client.webhookSubscriptions.retrieve(subscription.id)).id).toBe(subscription.id);
    const changed = await client.webhookSubscriptions.update(subscription.id, {
      enabledEvents: ['workflow_run.completed', 'workflow_run.failed'],
    });
    expect(changed.enabledEvents).toHaveLength(2);
    expect(
      (await client.webhookSubscriptions.list({ resourceId: wf.id })).data.map((s) => s.id),
    ).toEqual([subscription.id]);
    const other = await client.webhookSubscriptions.create({
      webhookEndpointId: second.id,
      resourceType: 'workflow',
      resourceId: wf.id,
      enabledEvents: ['workflow_run.failed'],
    });
    expect(
      (await client.webhookSubscriptions.list({ webhookEndpointId: second.id })).data.map(
        (s) => s.id,
      ),
    ).toEqual([other.id]);
    expect(
      (await client.webhookSubscriptions.list({ resourceId: wf.id, sortDir: 'asc' })).data.map(
        (s) => s.id,
      ),
    ).toEqual([subscription.id, other.id]);
    expect((await client.webhookSubscriptions.delete(other.id)).id).toBe(other.id);
    expect((await client.webhookEndpoints.delete(second.id)).id).toBe(second.id);
    expect((await client.webhookSubscriptions.delete(subscription.id)).id).toBe(subscription.id);
    expect((await client.webhookEndpoints.delete(endpoint.id)).id).toBe(endpoint.id);
  });

  it('delivers events that the SDK verifies unchanged (verifyAndParse), through a workflow subscription', async () => {
    const client = t.client();
    const endpoint = await client.webhookEndpoints.create({
      url: receiver.url,
      name: 'runs',
      enabledEvents: [],
      apiVersion: '2026-02-09',
    });
    const wf = await client.workflows.create({
      name: 'Delivered',
      steps: TWO_STEPS,
    });
    await client.workflowVersions.create(wf.id, {});
    await client.webhookSubscriptions.create({
      webhookEndpointId: endpoint.id,
      resourceType: 'workflow',
      resourceId: wf.id,
      enabledEvents: ['workflow_run.completed'],
    });
    const run = await client.workflowRuns.create({
      workflow: { id: wf.id },
      file: { text: 'hello' },
    });
    const request = await receiver.next(eventOf('workflow_run.completed'));
    expect(request.headers['x-extend-api-version']).toBe('2026-02-09');
    const event = new ExtendClient({ token: 'unused' }).webhooks.verifyAndParse(
      request.body,
      request.headers as Record<string, string>,
      endpoint.signingSecret,
    );
    expect(event).toMatchObject({
      eventType: 'workflow_run.completed',
      payload: { id: run.id, status: 'PROCESSED' },
    });
    expect(() =>
      new ExtendClient({ token: 'unused' }).webhooks.verifyAndParse(
        request.body.replace('PROCESSED', 'FAILED'),
        request.headers as Record<string, string>,
        endpoint.signingSecret,
      ),
    ).toThrow(/signature/i);
  });

  it('sends signed-URL payloads the SDK recognises and fetches (fetchSignedPayload)', async () => {
    const client = t.client();
    const endpoint = await client.webhookEndpoints.create({
      url: receiver.url,
      name: 'urls',
      enabledEvents: ['extract_run.processed'],
      apiVersion: '2026-02-09',
      advancedOptions: { payload: { format: 'url' } },
    });
    expect(endpoint.advancedOptions).toEqual({ payload: { format: 'url' } });
    const run = await client.extractRuns.create({
      file: { text: 'Total: 3.00 EUR' },
      config: {
        schema: { type: 'object', properties: { total: { type: ['number', 'null'] } } },
      } as never,
      metadata: { order: 'o-1' },
    });
    const request = await receiver.next(
      (r) => eventOf('extract_run.processed')(r) && r.body.includes(run.id),
    );
    const webhooks = new ExtendClient({ token: 'unused' }).webhooks;
    expect(() =>
      webhooks.verifyAndParse(
        request.body,
        request.headers as Record<string, string>,
        endpoint.signingSecret,
      ),
    ).toThrow(/signed URL/i);
    const event = webhooks.verifyAndParse(
      request.body,
      request.headers as Record<string, string>,
      endpoint.signingSecret,
      {
        allowSignedUrl: true,
      },
    );
    expect(webhooks.isSignedUrlEvent(event)).toBe(true);
    expect(event.payload).toMatchObject({
      object: 'signed_data_url',
      id: run.id,
      metadata: { order: 'o-1' },
    });
    const full = await webhooks.fetchSignedPayload(event as never);
    expect(full.payload).toMatchObject({ object: 'extract_run', id: run.id, status: 'PROCESSED' });
  });
});
