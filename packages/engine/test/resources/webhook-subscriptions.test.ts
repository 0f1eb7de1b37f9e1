import { memoryStorage } from '@docflow/storage';
import { beforeEach, describe, expect, it } from 'vitest';
import { type EngineError, isEngineError } from '../../src/errors.ts';
import { VALID_SUBSCRIPTION_EVENTS } from '../../src/events/event-types.ts';
import { createWebhookEndpointsService } from '../../src/resources/webhook-endpoints.ts';
import { createWebhookSubscriptionsService } from '../../src/resources/webhook-subscriptions.ts';
import { testContext } from '../webhooks/helpers.ts';

async function rejection(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise;
  } catch (error) {
    if (isEngineError(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('webhookSubscriptions', () => {
  let endpoints: ReturnType<typeof createWebhookEndpointsService>;
  let subscriptions: ReturnType<typeof createWebhookSubscriptionsService>;
  let endpointId: string;

  beforeEach(async () => {
    const storage = memoryStorage();
    await storage.open();
    const ctx = testContext(storage);
    endpoints = createWebhookEndpointsService(ctx);
    subscriptions = createWebhookSubscriptionsService(ctx);
    endpointId = (await endpoints.create({ url: 'https://example.com/h' })).id;
  });

  it('creates, gets, updates and deletes a subscription', async () => {
    const sub = await subscriptions.create({
      webhookEndpointId: endpointId,
      resourceType: 'extractor',
      resourceId: 'ex_1',
      enabledEvents: ['extract_run.processed'],
    });
    expect(sub).toMatchObject({
      object: 'webhook_subscription',
      webhookEndpointId: endpointId,
      resourceType: 'extractor',
      resourceId: 'ex_1',
      enabledEvents: ['extract_run.processed'],
    });
    expect(sub.id).toMatch(/^whes_/);
    expect(await subscriptions.get(sub.id)).toEqual(sub);
    const updated = await subscriptions.update(sub.id, {
      enabledEvents: ['extract_run.failed', 'batch_processor_run.processed'],
    });
    expect(updated.enabledEvents).toEqual(['extract_run.failed', 'batch_processor_run.processed']);
    expect(await subscriptions.get(sub.id)).toEqual(updated);
    const immutable = await rejection(
      subscriptions.update(sub.id, { resourceId: 'ex_2' } as never),
    );
    expect(immutable.details.issues?.[0]).toMatchObject({
      path: 'resourceId',
      code: 'IMMUTABLE_FIELD',
    });
    await subscriptions.delete(sub.id);
    expect((await rejection(subscriptions.get(sub.id))).code).toBe('NOT_FOUND');
  });

  it('updates the existing subscription of an endpoint and resource instead of duplicating it', async () => {
    const first = await subscriptions.create({
      webhookEndpointId: endpointId,
      resourceType: 'workflow',
      resourceId: 'workflow_1',
      enabledEvents: ['workflow_run.completed'],
    });
    const second = await subscriptions.create({
      webhookEndpointId: endpointId,
      resourceType: 'workflow',
      resourceId: 'workflow_1',
      enabledEvents: ['workflow_run.failed', 'workflow_run.step_run.processed'],
    });
    expect(second.id).toBe(first.id);
    expect(second.createdAt).toBe(first.createdAt);
    const all = await subscriptions.list();
    expect(all.data).toHaveLength(1);
    expect(all.data[0]?.enabledEvents).toEqual([
      'workflow_run.failed',
      'workflow_run.step_run.processed',
    ]);
  });

  it('accepts exactly the events the interface lists per resource type, naming the valid ones otherwise', async () => {
    for (const [resourceType, valid] of Object.entries(VALID_SUBSCRIPTION_EVENTS)) {
      const sub = await subscriptions.create({
        webhookEndpointId: endpointId,
        resourceType: resourceType as 'workflow',
        resourceId: `${resourceType}_x`,
        enabledEvents: [...valid],
      });
      expect(sub.enabledEvents).toEqual(valid);
    }
    const error = await rejection(
      subscriptions.create({
        webhookEndpointId: endpointId,
        resourceType: 'classifier',
        resourceId: 'cl_1',
        enabledEvents: ['classify_run.processed', 'extract_run.processed', 'workflow.created'],
      }),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    const issues = error.details.issues ?? [];
    expect(issues.map((i) => i.path)).toEqual(['enabledEvents[1]', 'enabledEvents[2]']);
    expect(issues[0]?.message).toContain(VALID_SUBSCRIPTION_EVENTS.classifier.join(', '));
    expect((await subscriptions.list({ resourceId: 'cl_1' })).data).toEqual([]);
  });

  it('rejects unknown resource types, missing fields and a missing endpoint, storing nothing', async () => {
    const bad = await rejection(
      subscriptions.create({ webhookEndpointId: endpointId, resourceType: 'parser' } as never),
    );
    expect(bad.details.issues?.map((i) => i.path).sort()).toEqual(
      ['enabledEvents', 'resourceId', 'resourceType'].sort(),
    );
    const missing = await rejection(
      subscriptions.create({
        webhookEndpointId: 'wh_missing',
        resourceType: 'workflow',
        resourceId: 'workflow_1',
        enabledEvents: ['workflow_run.completed'],
      }),
    );
    expect(missing.code).toBe('NOT_FOUND');
    expect(missing.details.issues?.[0]).toMatchObject({ path: 'webhookEndpointId' });
    expect((await subscriptions.list()).data).toEqual([]);
  });

  it('lists by webhookEndpointId or by resourceId', async () => {
    const other = (await endpoints.create({ url: 'https://other.example/h' })).id;
    const make = (webhookEndpointId: string, resourceId: string) =>
      subscriptions.create({
        webhookEndpointId,
        resourceType: 'splitter',
        resourceId,
        enabledEvents: ['split_run.processed'],
      });
    const a1 = await make(endpointId, 'spl_1');
    const a2 = await make(endpointId, 'spl_2');
    const b1 = await make(other, 'spl_1');
    const ids = (l: { data: readonly { id: string }[] }) => l.data.map((s) => s.id).sort();
    expect(ids(await subscriptions.list({ webhookEndpointId: endpointId }))).toEqual(
      [a1.id, a2.id].sort(),
    );
    expect(ids(await subscriptions.list({ resourceId: 'spl_1' }))).toEqual([a1.id, b1.id].sort());
    expect(
      ids(await subscriptions.list({ webhookEndpointId: other, resourceId: 'spl_1' })),
    ).toEqual([b1.id]);
  });
});
