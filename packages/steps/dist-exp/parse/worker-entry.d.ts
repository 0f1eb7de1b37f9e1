import { Worker, type WorkerOptions } from 'node:worker_threads';
/** How to start a worker thread on a module of this package. */
export type WorkerStart = {
    readonly url: URL;
} | {
    readonly code: string;
};
/**
 * How to start a worker on the module `name` (without extension) next to `self` (the caller's
 * `import.meta.url`): the compiled `.js` module, or, when running from the TypeScript sources
 * (tsx, vitest), the `.ts` module behind tsx's loader registered inside the thread (on Node 20 a
 * loader from the parent's `--import` does not reach worker threads). `undefined` when neither
 * works: the caller then does the work in its own thread.
 */
export declare function workerEntry(self: string, name: string): WorkerStart | undefined;
/** Starts a worker from a {@link WorkerStart}. */
export declare function startWorker(start: WorkerStart, options?: WorkerOptions): Worker;
/** How {@link askWorker} turns a worker's messages and failures into its result. */
export interface WorkerExchange<Message, Result> {
    /** A final reply's result (or a rejection); undefined for a message that is not the reply. */
    readonly reply: (message: Message) => {
        readonly value: Result;
    } | {
        readonly error: unknown;
    } | undefined;
    /** The rejection for a worker that failed (an error, or an exit before its reply). */
    readonly failed: (error: Error & {
        code?: string;
    }) => unknown;
    /** Told once the worker answered (not after an abort or a failure): keep it or close it. */
    readonly answered: () => void;
}
/**
 * Posts `request` to `worker` and settles with its reply. An abort terminates the worker and
 * rejects with the signal's reason; an error or an exit terminates it and rejects with what
 * `exchange.failed` makes of it. Every listener is removed once it settles.
 */
export declare function askWorker<Message, Result>(worker: Worker, request: unknown, signal: AbortSignal, exchange: WorkerExchange<Message, Result>): Promise<Result>;
//# sourceMappingURL=worker-entry.d.ts.map