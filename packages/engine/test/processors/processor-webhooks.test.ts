import { memoryStorage } from '@docflow/storage';
import { describe, expect, it } from 'vitest';
import type { EngineContext, EventSink } from '../../src/internal/engine-context.ts';
import { newId } from '../../src/internal/ids.ts';
import { createProcessorsService } from '../../src/resources/processors.ts';
import { createWebhookEndpointsService } from '../../src/resources/webhook-endpoints.ts';
import { createTestClock } from '../../src/testing/test-clock.ts';
import { createEvent, planEventDeliveries } from '../../src/webhooks/plan-deliveries.ts';
import { VALID_CONFIGS } from './helpers.ts';

/** The engine's own event sink (as createEngine builds it), minus the in-process bus. */
async function engineLikeContext(): Promise<EngineContext> {
  const storage = memoryStorage();
  await storage.open();
  const clock = createTestClock('2026-03-01T10:00:00.000Z');
  const ctx: EngineContext = {
    storage,
    clock,
    newId,
    nowIso: () => clock.now().toISOString(),
    get events(): EventSink {
      return {
        async prepare(eventType, payload, resource) {
          const event = createEvent(ctx, eventType, payload);
          return { event, deliveries: await planEventDeliveries(ctx, event, resource) };
        },
        publish() {},
      };
    },
  };
  return ctx;
}

describe('processor lifecycle events reach webhook endpoints', () => {
  it('an endpoint with enabledEvents gets exactly the lifecycle events it lists', async () => {
    const ctx = await engineLikeContext();
    const endpoints = createWebhookEndpointsService(ctx);
    const lifecycle = await endpoints.create({
      url: 'https://example.com/hooks',
      enabledEvents: ['splitter.created', 'splitter.version.published', 'splitter.deleted'],
    });
    await endpoints.create({
      url: 'https://example.com/other',
      enabledEvents: ['extractor.created'],
    });
    const splitters = createProcessorsService(ctx, { kind: 'splitter' });
    const s = await splitters.create({ name: 'Packets', config: VALID_CONFIGS.splitter as never });
    await splitters.update(s.id, { name: 'Renamed' });
    const { processorVersion } = await splitters.publish(s.id, { releaseType: 'major' });
    await splitters.delete(s.id);

    const deliveries = (await ctx.storage.listDeliveries({ order: 'asc' })).items;
    expect(deliveries.map((d) => [d.endpointId, d.eventType])).toEqual([
      [lifecycle.id, 'splitter.created'],
      [lifecycle.id, 'splitter.version.published'],
      [lifecycle.id, 'splitter.deleted'],
    ]);
    expect(deliveries[1]?.event).toMatchObject({
      eventType: 'splitter.version.published',
      payload: processorVersion,
    });
  });
});
