import type { TransferListItem } from 'node:worker_threads';

/** A message as pdf.js's message handlers read it from a port. */
interface PortEvent {
  readonly data: unknown;
}

type Listener = (this: InThreadPort, event: PortEvent) => void;

interface TextContentMessage {
  readonly chunk: { readonly items: unknown[]; readonly styles: object };
}

/**
 * True for a chunk of a page's text content on its way from pdf.js's worker half. These chunks
 * are most of what crosses the port when reading text.
 */
function isTextContentChunk(message: unknown): message is TextContentMessage {
  const chunk = (message as { chunk?: { items?: unknown; styles?: unknown } } | null)?.chunk;
  return (
    typeof chunk === 'object' &&
    chunk !== null &&
    Array.isArray(chunk.items) &&
    typeof chunk.styles === 'object'
  );
}

/**
 * A text-content chunk as it is at the send. The sender reuses the chunk object, giving it new
 * `items` and `styles` right after the send, but never touches the arrays and objects it gave
 * away; the API half only copies the items out. So a copy of the chunk's top level keeps what
 * was sent, without a deep copy of every item.
 */
function sentTextContent(message: TextContentMessage): TextContentMessage {
  return { ...message, chunk: { ...message.chunk } };
}

/**
 * True for a message whose values are all primitives, such as the pull and pull-complete
 * messages of every chunk read: a copy of its top level is all a structured clone would make.
 */
function isFlat(message: unknown): message is Record<string, unknown> {
  if (typeof message !== 'object' || message === null) return false;
  if (Object.getPrototypeOf(message) !== Object.prototype) return false;
  for (const key in message) {
    const value = (message as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null) return false;
  }
  return true;
}

/**
 * Connects pdf.js's API half to its worker half in the same thread, as pdf.js's own
 * `LoopbackPort` does, but without the structured clone of text-content chunks (about a tenth of
 * reading a page's text), and with a plain copy of messages that hold only primitives. Every
 * other message is cloned as before: operator lists, for one, are emptied in place by the sender
 * right after they are sent. Delivery keeps LoopbackPort's order and timing:
 * one microtask after the send, to every listener.
 */
export class InThreadPort {
  readonly #listeners = new Map<Listener, (() => void) | undefined>();
  readonly #deferred = Promise.resolve();

  postMessage(message: unknown, transfer?: TransferListItem[]): void {
    const event: PortEvent = {
      data: isTextContentChunk(message)
        ? sentTextContent(message)
        : !transfer?.length && isFlat(message)
          ? { ...message }
          : structuredClone(message, transfer ? { transfer } : undefined),
    };
    void this.#deferred.then(() => {
      for (const listener of this.#listeners.keys()) listener.call(this, event);
    });
  }

  addEventListener(
    _type: 'message',
    listener: Listener,
    options?: { signal?: AbortSignal } | null,
  ): void {
    const signal = options?.signal;
    if (signal?.aborted) return;
    let unsubscribe: (() => void) | undefined;
    if (signal) {
      const onAbort = () => this.removeEventListener('message', listener);
      signal.addEventListener('abort', onAbort, { once: true });
      unsubscribe = () => signal.removeEventListener('abort', onAbort);
    }
    this.#listeners.set(listener, unsubscribe);
  }

  removeEventListener(_type: 'message', listener: Listener): void {
    this.#listeners.get(listener)?.();
    this.#listeners.delete(listener);
  }

  terminate(): void {
    for (const unsubscribe of this.#listeners.values()) unsubscribe?.();
    this.#listeners.clear();
  }
}
