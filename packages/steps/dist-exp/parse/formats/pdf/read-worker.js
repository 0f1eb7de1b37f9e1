import { parentPort } from 'node:worker_threads';
import { ParseFailure } from '../../parse-failure.js';
import { readShare } from './read-share.js';
import { openPdf } from './scan-page.js';
// Entry of a pooled PDF worker thread: reads its share of a document's pages per request. The
// thread lives on between documents, so pdf.js and pdf-lib are loaded and compiled once.
async function read(request) {
    const task = await openPdf(request.bytes);
    try {
        const doc = await task.promise;
        const share = await readShare(request.bytes, doc, request.pages, request.config, request.hasForm, undefined, request.progress
            ? (page) => parentPort?.postMessage({ pageRead: { scanned: page.scanned } })
            : undefined);
        return { ok: true, ...share };
    }
    catch (error) {
        return error instanceof ParseFailure
            ? { ok: false, reason: error.reason, name: error.name, message: error.message }
            : {
                ok: false,
                name: error instanceof Error ? error.name : 'Error',
                message: error instanceof Error ? error.message : String(error),
            };
    }
    finally {
        await task.destroy().catch(() => undefined);
    }
}
parentPort?.on('message', (request) => {
    void read(request).then((reply) => parentPort?.postMessage(reply));
});
//# sourceMappingURL=read-worker.js.map