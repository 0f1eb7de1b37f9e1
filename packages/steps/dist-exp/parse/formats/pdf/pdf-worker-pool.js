import { availableParallelism, loadavg } from 'node:os';
import { askWorker, startWorker, workerEntry } from '../../worker-entry.js';
/** Idle workers close after this long, so that an idle process holds no threads. */
const IDLE_MS = 5000;
/** Workers at most: one per core, up to 4. */
export const PDF_WORKERS = Math.min(4, availableParallelism());
const idle = [];
let timer;
const start = workerEntry(import.meta.url, 'read-worker');
/** True when pages can be read by worker threads here. */
export function pdfWorkersAvailable() {
    return start !== undefined && PDF_WORKERS >= 2;
}
/**
 * True when a core is idle (the load average of the last minute below the core count by one):
 * only then does a second thread reading pages shorten a parse. On a busy machine (this
 * process's other parses, or anything else) another thread only adds contention and its own
 * copy of the document and its fonts. Platforms without a load average (Windows: 0) count as
 * idle.
 */
export function spareCore() {
    return (loadavg()[0] ?? 0) <= availableParallelism() - 1;
}
function spawn() {
    if (!start)
        throw new Error('PDF workers are not available in this runtime');
    return startWorker(start);
}
/**
 * Reads pages on a pooled worker. Rejects with the worker's error when it could not start or
 * crashed (the caller may read the pages itself), with a rebuilt error when reading failed.
 */
export function readOnWorker(request, signal, onPage) {
    if (signal.aborted)
        return Promise.reject(signal.reason);
    if (timer) {
        clearTimeout(timer);
        timer = undefined;
    }
    const worker = idle.pop() ?? spawn();
    // A working thread keeps the process alive; an idle one must not.
    worker.ref();
    return askWorker(worker, onPage ? { ...request, progress: true } : request, signal, {
        reply: (reply) => {
            if ('pageRead' in reply) {
                onPage?.(reply.pageRead);
                return undefined;
            }
            if (reply.ok)
                return { value: reply };
            return {
                error: Object.assign(new Error(reply.message), {
                    name: reply.name,
                    reason: reply.reason,
                }),
            };
        },
        failed: (error) => error,
        answered: () => release(worker),
    });
}
function release(worker) {
    worker.unref();
    idle.push(worker);
    timer ??= setTimeout(() => void closePdfWorkers(), IDLE_MS);
    timer.unref();
}
/** Terminates idle PDF workers (they are started again on demand). */
export async function closePdfWorkers() {
    if (timer) {
        clearTimeout(timer);
        timer = undefined;
    }
    await Promise.all(idle.splice(0).map((worker) => worker.terminate()));
}
//# sourceMappingURL=pdf-worker-pool.js.map