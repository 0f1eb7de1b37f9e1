import { ParseFailure } from '../../parse-failure.js';
import { PDF_WORKERS, pdfWorkersAvailable, readOnWorker } from './pdf-worker-pool.js';
import { readShare } from './read-share.js';
import { pdfError } from './scan-page.js';
/** From this many pages on, pages are read by pooled worker threads. */
export const PDF_WORKER_THRESHOLD = 60;
/** Pages this thread reads in the time a worker takes to open its copy of the document. */
const HEAD_START = 12;
/** A page read is final unless it is a scan, which is final once OCRed (parse-pdf.ts). */
function countPage(context, scanned) {
    if (!scanned)
        context.progress?.pageDone();
}
async function readInThread(bytes, doc, pages, context, hasForm) {
    try {
        const share = await readShare(bytes, doc, pages, context.config, hasForm, context.signal, context.progress && ((page) => countPage(context, page.scanned)));
        return { ...share, threads: 0 };
    }
    catch (error) {
        context.signal.throwIfAborted();
        if (error instanceof ParseFailure)
            throw error;
        throw pdfError(error);
    }
}
/**
 * Reads and lays out the selected pages: in this thread for short documents, else in contiguous ranges, the
 * first here and the others on pooled worker threads (one per further core; each opens its own
 * copy of the document), so that large born-digital PDFs use every core. Falls back to this
 * thread when a worker cannot run.
 */
export async function readPages(bytes, doc, pages, context, hasForm, threshold = PDF_WORKER_THRESHOLD) {
    context.signal.throwIfAborted();
    if (!pdfWorkersAvailable() || pages.length < threshold) {
        return readInThread(bytes, doc, pages, context, hasForm);
    }
    // This thread reads the first share with the document it already has open, while one worker
    // per other core reads each further share: no thread waits, none opens a copy for nothing.
    // A worker first opens its own copy of the document while this thread, which opened it
    // already, reads: this thread's share is larger by about what that opening costs.
    const head = Math.min(HEAD_START, Math.floor(pages.length / (2 * PDF_WORKERS)));
    const size = Math.ceil((pages.length - head) / PDF_WORKERS);
    const ownSize = size + head;
    const own = pages.slice(0, ownSize);
    const parts = [];
    for (let i = ownSize; i < pages.length; i += size)
        parts.push(pages.slice(i, i + size));
    const onPage = context.progress && ((page) => countPage(context, page.scanned));
    const workers = parts.map((part) => readOnWorker({ bytes, pages: part, config: context.config, hasForm }, context.signal, onPage));
    // Settled at once, so that a failing worker is not an unhandled rejection meanwhile.
    const settled = Promise.allSettled(workers);
    try {
        const mine = await readInThread(bytes, doc, own, context, hasForm);
        const replies = await Promise.all(workers);
        const paths = { ...mine.paths };
        for (const reply of replies) {
            for (const key of Object.keys(paths))
                paths[key] += reply.paths[key];
        }
        return {
            pages: [...mine.pages, ...replies.flatMap((reply) => reply.pages)],
            paths,
            threads: parts.length,
        };
    }
    catch (error) {
        context.signal.throwIfAborted();
        const reason = error.reason;
        if (typeof reason === 'string' && error instanceof Error) {
            throw new ParseFailure(reason, error.message);
        }
        if (error instanceof Error && /PasswordException|InvalidPDFException/.test(error.name)) {
            throw pdfError(error);
        }
        if (error instanceof ParseFailure)
            throw error;
        // A worker that could not start (missing loader, resource limits): read here instead.
        await settled;
        return readInThread(bytes, doc, pages, context, hasForm);
    }
}
//# sourceMappingURL=read-pages.js.map