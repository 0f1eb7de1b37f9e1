/**
 * True for a chunk of a page's text content on its way from pdf.js's worker half. These chunks
 * are most of what crosses the port when reading text.
 */
function isTextContentChunk(message) {
    const chunk = message?.chunk;
    return (typeof chunk === 'object' &&
        chunk !== null &&
        Array.isArray(chunk.items) &&
        typeof chunk.styles === 'object');
}
/**
 * A text-content chunk as it is at the send. The sender reuses the chunk object, giving it new
 * `items` and `styles` right after the send, but never touches the arrays and objects it gave
 * away; the API half only copies the items out. So a copy of the chunk's top level keeps what
 * was sent, without a deep copy of every item.
 */
function sentTextContent(message) {
    return { ...message, chunk: { ...message.chunk } };
}
/**
 * True for a message whose values are all primitives, such as the pull and pull-complete
 * messages of every chunk read: a copy of its top level is all a structured clone would make.
 */
function isFlat(message) {
    if (typeof message !== 'object' || message === null)
        return false;
    if (Object.getPrototypeOf(message) !== Object.prototype)
        return false;
    for (const key in message) {
        const value = message[key];
        if (typeof value === 'object' && value !== null)
            return false;
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
    #listeners = new Map();
    #deferred = Promise.resolve();
    postMessage(message, transfer) {
        const event = {
            data: process.env.CLONE ? structuredClone(message, transfer ? { transfer } : undefined) : isTextContentChunk(message)
                ? sentTextContent(message)
                : !transfer?.length && isFlat(message)
                    ? { ...message }
                    : structuredClone(message, transfer ? { transfer } : undefined),
        };
        void this.#deferred.then(() => {
            for (const listener of this.#listeners.keys())
                listener.call(this, event);
        });
    }
    addEventListener(_type, listener, options) {
        const signal = options?.signal;
        if (signal?.aborted)
            return;
        let unsubscribe;
        if (signal) {
            const onAbort = () => this.removeEventListener('message', listener);
            signal.addEventListener('abort', onAbort, { once: true });
            unsubscribe = () => signal.removeEventListener('abort', onAbort);
        }
        this.#listeners.set(listener, unsubscribe);
    }
    removeEventListener(_type, listener) {
        this.#listeners.get(listener)?.();
        this.#listeners.delete(listener);
    }
    terminate() {
        for (const unsubscribe of this.#listeners.values())
            unsubscribe?.();
        this.#listeners.clear();
    }
}
//# sourceMappingURL=in-thread-port.js.map