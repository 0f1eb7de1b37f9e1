/**
 * In-process listeners (`engine.on(type, fn)`): told about each event after the commit that
 * recorded it, in the same process only and at most once. Webhooks are the durable channel;
 * listeners are for metrics, logs and tests.
 */
import type { EngineEvent } from './event-types.ts';

/** A listener; a returned promise is awaited only for error reporting. */
export type EventListener = (event: EngineEvent) => void | Promise<void>;

/** The registry the engine keeps. */
export interface EventListeners {
  /**
   * Calls `listener` for every event of `eventType`, or of every type with `'*'`. Returns a
   * function that removes it.
   */
  on(eventType: string, listener: EventListener): () => void;
  /** Tells the listeners of `event.eventType` and of `'*'`. Never throws. */
  emit(event: EngineEvent): void;
}

/**
 * A listener registry. A listener that throws or rejects is reported to `onError` and does not
 * stop the others.
 *
 * @example
 * const listeners = createEventListeners();
 * const off = listeners.on('workflow_run.completed', (e) => console.log(e.payload.id));
 */
export function createEventListeners(
  onError: (error: unknown, event: EngineEvent) => void = () => {},
): EventListeners {
  const byType = new Map<string, Set<EventListener>>();

  function call(listener: EventListener, event: EngineEvent): void {
    try {
      const result = listener(event);
      if (result instanceof Promise) result.catch((error: unknown) => onError(error, event));
    } catch (error) {
      onError(error, event);
    }
  }

  return {
    on(eventType, listener) {
      let set = byType.get(eventType);
      if (set === undefined) {
        set = new Set();
        byType.set(eventType, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    emit(event) {
      // Copy first: a listener may remove itself (or add others) while being called.
      for (const listener of [...(byType.get(event.eventType) ?? [])]) call(listener, event);
      for (const listener of [...(byType.get('*') ?? [])]) call(listener, event);
    },
  };
}
