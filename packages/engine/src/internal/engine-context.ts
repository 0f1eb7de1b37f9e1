import type { DeliveryWrite, JsonObject, StorageAdapter } from '@docflow/storage';
import type { Clock } from '../clock.ts';
import type { EngineEvent, EventResource } from '../events/event-types.ts';

/**
 * How services raise events: `prepare` before the commit (its deliveries go into the same
 * transaction as the state change), `publish` after it (in-process listeners, dispatcher wake-up).
 */
export interface EventSink {
  prepare(
    eventType: string,
    payload: JsonObject,
    resource?: EventResource,
  ): Promise<{ event: EngineEvent; deliveries: readonly DeliveryWrite[] }>;
  publish(events: readonly EngineEvent[]): void;
}

/** What the engine's resource services share. Internal: not exported from the package. */
export interface EngineContext {
  readonly storage: StorageAdapter;
  readonly clock: Clock;
  /** A new id with the given the interface prefix (`workflow_run_`, `file_`, …). */
  newId(prefix: string): string;
  /** RFC 3339 UTC of the clock's now. */
  nowIso(): string;
  /** Raising events; absent in contexts that raise none. */
  readonly events?: EventSink;
}
