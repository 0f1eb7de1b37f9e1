import { memoryStorage } from '@docflow/storage';
import { describe, expect, it } from 'vitest';
import { createWebhookEndpointsService } from '../../src/resources/webhook-endpoints.ts';
import { createWebhookSubscriptionsService } from '../../src/resources/webhook-subscriptions.ts';
import { loadDeliveryTargets } from '../../src/webhooks/delivery-targets.ts';
import {
  planDeliveries,
  planEventDeliveries,
  routeEvent,
} from '../../src/webhooks/plan-deliveries.ts';
import { testContext } from './helpers.ts';

const targets = {
  endpoints: [
    { id: 'wh_global', enabledEvents: ['extract_run.processed', 'workflow.created'] },
    { id: 'wh_both', enabledEvents: ['extract_run.processed'] },
    { id: 'wh_sub', enabledEvents: [] },
  ],
  subscriptions: [
    {
      id: 'whes_1',
      webhookEndpointId: 'wh_both',
      resourceType: 'extractor' as const,
      resourceId: 'ex_1',
      enabledEvents: ['extract_run.processed', 'extract_run.failed'],
    },
    {
      id: 'whes_2',
      webhookEndpointId: 'wh_sub',
      resourceType: 'workflow' as const,
      resourceId: 'workflow_1',
      enabledEvents: ['workflow_run.completed'],
    },
    {
      id: 'whes_3',
      webhookEndpointId: 'wh_gone',
      resourceType: 'workflow' as const,
      resourceId: 'workflow_1',
      enabledEvents: ['workflow_run.completed'],
    },
  ],
};

describe('routeEvent', () => {
  it('sends workflow_run.* only through subscriptions to that workflow', () => {
    expect(
      routeEvent('workflow_run.completed', targets, { type: 'workflow', id: 'workflow_1' }),
    ).toEqual(['wh_sub']);
    expect(
      routeEvent('workflow_run.completed', targets, { type: 'workflow', id: 'workflow_2' }),
    ).toEqual([]);
    expect(
      routeEvent('workflow_run.failed', targets, { type: 'workflow', id: 'workflow_1' }),
    ).toEqual([]);
    // Even an endpoint that (wrongly) lists one globally never receives it without a subscription.
    const leaky = {
      ...targets,
      endpoints: [{ id: 'wh_x', enabledEvents: ['workflow_run.completed'] }],
    };
    expect(routeEvent('workflow_run.completed', leaky)).toEqual([]);
  });

  it('sends a WEBHOOK_RESPONSE result to every endpoint subscribed to the workflow', () => {
    expect(
      routeEvent('workflow_run.webhook_response', targets, { type: 'workflow', id: 'workflow_1' }),
    ).toEqual(['wh_sub']);
    expect(
      routeEvent('workflow_run.webhook_response', targets, { type: 'workflow', id: 'workflow_2' }),
    ).toEqual([]);
    expect(routeEvent('workflow_run.webhook_response', targets)).toEqual([]);
  });

  it('sends processor run completions at both levels, once per endpoint', () => {
    expect(routeEvent('extract_run.processed', targets, { type: 'extractor', id: 'ex_1' })).toEqual(
      ['wh_global', 'wh_both'],
    );
    expect(routeEvent('extract_run.failed', targets, { type: 'extractor', id: 'ex_1' })).toEqual([
      'wh_both',
    ]);
    expect(routeEvent('extract_run.processed', targets, { type: 'extractor', id: 'ex_2' })).toEqual(
      ['wh_global', 'wh_both'],
    );
    expect(routeEvent('extract_run.failed', targets, { type: 'classifier', id: 'ex_1' })).toEqual(
      [],
    );
  });

  it('sends lifecycle events globally', () => {
    expect(routeEvent('workflow.created', targets, { type: 'workflow', id: 'workflow_1' })).toEqual(
      ['wh_global'],
    );
    expect(routeEvent('workflow.deleted', targets)).toEqual([]);
  });
});

describe('planDeliveries', () => {
  it('makes one pending outbox row per endpoint with a stable id', () => {
    const event = {
      eventId: 'evt_1',
      eventType: 'extract_run.processed',
      payload: { id: 'exr_1' },
    };
    const at = '2026-03-01T00:00:00.000Z';
    const rows = planDeliveries(event, {
      ...targets,
      resource: { type: 'extractor', id: 'ex_1' },
      at,
    });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      endpointId: 'wh_global',
      eventId: 'evt_1',
      eventType: 'extract_run.processed',
      event,
      status: 'pending',
      attempts: [],
      nextAttemptAt: at,
    });
    expect(new Set(rows.map((r) => r.id)).size).toBe(2);
    expect(
      planDeliveries(event, { ...targets, resource: { type: 'extractor', id: 'ex_1' }, at }),
    ).toEqual(rows);
  });

  it('sees subscriptions created through the services at once (cache invalidation)', async () => {
    const storage = memoryStorage();
    await storage.open();
    const ctx = testContext(storage);
    const endpoints = createWebhookEndpointsService(ctx);
    const subscriptions = createWebhookSubscriptionsService(ctx);
    const event = { eventId: 'evt_2', eventType: 'workflow_run.completed', payload: {} };
    const resource = { type: 'workflow' as const, id: 'workflow_9' };
    expect(await planEventDeliveries(ctx, event, resource)).toEqual([]);
    const endpoint = await endpoints.create({ url: 'https://example.com/h' });
    const sub = await subscriptions.create({
      webhookEndpointId: endpoint.id,
      resourceType: 'workflow',
      resourceId: 'workflow_9',
      enabledEvents: ['workflow_run.completed'],
    });
    expect((await planEventDeliveries(ctx, event, resource)).map((d) => d.endpointId)).toEqual([
      endpoint.id,
    ]);
    await subscriptions.update(sub.id, { enabledEvents: ['workflow_run.failed'] });
    expect(await planEventDeliveries(ctx, event, resource)).toEqual([]);
    await endpoints.update(endpoint.id, { enabledEvents: ['workflow.deployed'] });
    expect((await loadDeliveryTargets(storage)).endpoints[0]?.enabledEvents).toEqual([
      'workflow.deployed',
    ]);
    await endpoints.delete(endpoint.id);
    expect(await loadDeliveryTargets(storage)).toEqual({ endpoints: [], subscriptions: [] });
  });
});
