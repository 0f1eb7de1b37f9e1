import { type DeliveryWrite, memoryStorage, type StorageAdapter } from '@docflow/storage';
import type { EngineEvent, EventResource } from '../../src/events/event-types.ts';
import type { EngineContext } from '../../src/internal/engine-context.ts';
import { newId } from '../../src/internal/ids.ts';
import { createTestClock, type TestClock } from '../../src/testing/test-clock.ts';

/** An engine context over memory storage whose event sink records what it is given. */
export interface RecordingContext {
  readonly ctx: EngineContext;
  readonly storage: StorageAdapter;
  readonly clock: TestClock;
  /** Events published (after their commit), in order. */
  readonly published: EngineEvent[];
  /** Events prepared, with the resource they were scoped to. */
  readonly prepared: { event: EngineEvent; resource: EventResource | undefined }[];
}

/**
 * Every prepared event gets one outbox delivery (to a fake endpoint `wh_test`), so tests can see
 * that deliveries land in the same commit as the state change, and only then.
 */
export async function recordingContext(
  storage: StorageAdapter = memoryStorage(),
): Promise<RecordingContext> {
  await storage.open();
  const clock = createTestClock('2026-03-01T10:00:00.000Z');
  const published: EngineEvent[] = [];
  const prepared: RecordingContext['prepared'] = [];
  const ctx: EngineContext = {
    storage,
    clock,
    newId,
    nowIso: () => clock.now().toISOString(),
    events: {
      async prepare(eventType, payload, resource) {
        const event: EngineEvent = { eventId: newId('evt_'), eventType, payload };
        prepared.push({ event, resource });
        const delivery: DeliveryWrite = {
          id: `whd_${event.eventId}`,
          endpointId: 'wh_test',
          eventId: event.eventId,
          eventType,
          event: { eventId: event.eventId, eventType, payload },
          status: 'pending',
          attempts: [],
          nextAttemptAt: clock.now().toISOString(),
        };
        return { event, deliveries: [delivery] };
      },
      publish(events) {
        published.push(...events);
      },
    },
  };
  return { ctx, storage, clock, published, prepared };
}

/** Event types of the outbox deliveries stored so far, oldest first. */
export async function deliveredTypes(storage: StorageAdapter): Promise<string[]> {
  const page = await storage.listDeliveries({ order: 'asc', pageSize: 1000 });
  return page.items.map((d) => d.eventType);
}

/** How many documents a collection holds. */
export async function countDocuments(
  storage: StorageAdapter,
  collection: 'processors' | 'processorVersions',
): Promise<number> {
  const page = await storage.listDocuments(collection, { pageSize: 1000 });
  return page.items.length;
}

/** A valid config per kind. */
export const VALID_CONFIGS = {
  extractor: {
    schema: {
      type: 'object',
      properties: {
        invoice_number: { type: 'string', description: 'The invoice number' },
        total: { type: 'number' },
      },
    },
  },
  classifier: {
    classifications: [
      { id: 'cls_invoice', type: 'invoice', description: 'An invoice' },
      { id: 'cls_other', type: 'other', description: 'Anything else' },
    ],
  },
  splitter: {
    splitClassifications: [
      { id: 'spl_invoice', type: 'invoice', description: 'An invoice' },
      { id: 'spl_other', type: 'other', description: 'Anything else' },
    ],
  },
} as const;
