import { ParseFailure } from './parse-failure.js';
import { runFormat } from './run-format.js';
import { askWorker, startWorker, workerEntry } from './worker-entry.js';
/**
 * Formats read in a worker thread with a bounded heap: those whose parsers build a tree or a
 * sheet of the whole document in memory (a DOCX of honest but enormous XML, a sheet of millions
 * of cells, deep or huge markup). PDFs are read page by page (and their streams measured first),
 * images by sharp's native decoder under its pixel limit, text in one pass.
 */
const CONTAINED = new Set(['DOCX', 'EXCEL', 'HTML', 'XML', 'CSV']);
const start = workerEntry(import.meta.url, 'format-worker');
/** Idle workers kept for the next document (loading the parsers costs more than a parse). */
const idle = [];
const IDLE_KEPT = 2;
const IDLE_MS = 5000;
let timer;
function release(entry) {
    entry.worker.unref();
    if (idle.length >= IDLE_KEPT) {
        void entry.worker.terminate();
        return;
    }
    idle.push(entry);
    timer ??= setTimeout(() => {
        timer = undefined;
        for (const e of idle.splice(0))
            void e.worker.terminate();
    }, IDLE_MS);
    timer.unref();
}
function acquire(heapMb) {
    const i = idle.findIndex((e) => e.heapMb === heapMb);
    const found = i === -1 ? undefined : idle.splice(i, 1)[0];
    if (found) {
        found.worker.ref();
        return found;
    }
    const worker = startWorker(start, {
        resourceLimits: {
            maxOldGenerationSizeMb: heapMb,
            maxYoungGenerationSizeMb: Math.min(64, heapMb),
        },
    });
    return { worker, heapMb };
}
/**
 * Reads a document with its format's parser, in a worker thread whose heap is bounded by
 * `limits.workerHeapMb` for the formats that build the whole document in memory: a document
 * that needs more ends the worker, not the process, and fails with FILE_SIZE_TOO_LARGE; a
 * worker that dies otherwise is CORRUPT_FILE. Other formats (and a runtime without workers, or
 * `workerHeapMb: 0`) are read in this thread. An abort terminates the worker at once.
 */
export function runFormatContained(type, bytes, context) {
    const heapMb = context.limits.workerHeapMb;
    if (!CONTAINED.has(type) || start === undefined || heapMb <= 0) {
        return runFormat(type, bytes, context);
    }
    const { signal } = context;
    if (signal.aborted)
        return Promise.reject(signal.reason);
    if (timer && idle.length <= 1) {
        clearTimeout(timer);
        timer = undefined;
    }
    const entry = acquire(heapMb);
    const job = {
        type,
        bytes,
        config: context.config,
        limits: context.limits,
        mimeType: context.mimeType,
        fileName: context.fileName,
    };
    return askWorker(entry.worker, job, signal, {
        reply: (reply) => {
            if (reply.ok)
                return { value: reply.draft };
            if (reply.reason)
                return { error: new ParseFailure(reply.reason, reply.message) };
            const Rebuilt = reply.name === 'RangeError' ? RangeError : Error;
            return { error: Object.assign(new Rebuilt(reply.message), { name: reply.name }) };
        },
        failed: (error) => error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ParseFailure('FILE_SIZE_TOO_LARGE', `Reading the ${type} file needed more than the ${heapMb} MiB of memory its parser may use (limits.workerHeapMb): the document is too large or expands too far. Split it, or raise the limit.`)
            : new ParseFailure('CORRUPT_FILE', `The ${type} parser stopped on this file (${error.message}). Re-export the document from its source application.`),
        answered: () => release(entry),
    });
}
//# sourceMappingURL=contained-format.js.map