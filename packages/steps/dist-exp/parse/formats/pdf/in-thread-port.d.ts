import type { TransferListItem } from 'node:worker_threads';
/** A message as pdf.js's message handlers read it from a port. */
interface PortEvent {
    readonly data: unknown;
}
type Listener = (this: InThreadPort, event: PortEvent) => void;
/**
 * Connects pdf.js's API half to its worker half in the same thread, as pdf.js's own
 * `LoopbackPort` does, but without the structured clone of text-content chunks (about a tenth of
 * reading a page's text), and with a plain copy of messages that hold only primitives. Every
 * other message is cloned as before: operator lists, for one, are emptied in place by the sender
 * right after they are sent. Delivery keeps LoopbackPort's order and timing:
 * one microtask after the send, to every listener.
 */
export declare class InThreadPort {
    #private;
    postMessage(message: unknown, transfer?: TransferListItem[]): void;
    addEventListener(_type: 'message', listener: Listener, options?: {
        signal?: AbortSignal;
    } | null): void;
    removeEventListener(_type: 'message', listener: Listener): void;
    terminate(): void;
}
export {};
//# sourceMappingURL=in-thread-port.d.ts.map