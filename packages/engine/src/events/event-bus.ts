import type { EngineEvent } from '../events/event-types.ts';

/** A listener of engine events. Errors it throws are reported, never propagated into the engine. */
export type EngineEventListener = (event: EngineEvent) => void | Promise<void>;

/** In-process fan-out of engine events (`engine.on`). `'*'` listens to every type. */
export class EventBus {
  readonly #listeners = new Map<string, Set<EngineEventListener>>();
  readonly #onListenerError: (error: unknown, event: EngineEvent) => void;

  constructor(onListenerError: (error: unknown, event: EngineEvent) => void) {
    this.#onListenerError = onListenerError;
  }

  /** Adds a listener; returns a function that removes it. */
  on(eventType: string, listener: EngineEventListener): () => void {
    let set = this.#listeners.get(eventType);
    if (!set) {
      set = new Set();
      this.#listeners.set(eventType, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /** True when someone listens to `eventType` (payloads are built only then). */
  has(eventType: string): boolean {
    return (
      (this.#listeners.get(eventType)?.size ?? 0) > 0 || (this.#listeners.get('*')?.size ?? 0) > 0
    );
  }

  emit(event: EngineEvent): void {
    for (const key of [event.eventType, '*']) {
      for (const listener of this.#listeners.get(key) ?? []) {
        try {
          const result = listener(event);
          if (result instanceof Promise) result.catch((e) => this.#onListenerError(e, event));
        } catch (error) {
          this.#onListenerError(error, event);
        }
      }
    }
  }
}
