import { parentPort } from 'node:worker_threads';
import { isParseFailure } from './parse-failure.js';
import { runFormat } from './run-format.js';
// Entry of a contained parser's worker thread (contained-format.ts): reads one document per
// message under the thread's resource limits, and answers its draft or its error.
async function read(job) {
    const controller = new AbortController();
    try {
        const draft = await runFormat(job.type, job.bytes, {
            config: job.config,
            limits: job.limits,
            signal: controller.signal,
            mimeType: job.mimeType,
            fileName: job.fileName,
            // Only PDFs use them, and PDFs are not read here.
            pdfWorkers: 'never',
        });
        return { ok: true, draft };
    }
    catch (error) {
        return {
            ok: false,
            ...(isParseFailure(error) ? { reason: error.reason } : {}),
            name: error instanceof Error ? error.name : 'Error',
            message: error instanceof Error ? error.message : String(error),
        };
    }
}
parentPort?.on('message', (job) => {
    void read(job).then((reply) => parentPort?.postMessage(reply));
});
//# sourceMappingURL=format-worker.js.map