import { parentPort } from 'node:worker_threads';
import { ParseFailure } from '../../parse-failure.ts';
import type { ReadReply, ReadRequest } from './pdf-worker-pool.ts';
import type { PageSources } from './read-page.ts';
import { readPage } from './read-page.ts';
import { openPdf, type PageScan } from './scan-page.ts';

// Entry of a pooled PDF worker thread: reads its share of a document's pages per request. The
// thread lives on between documents, so pdf.js and pdf-lib are loaded and compiled once.
async function read(request: ReadRequest): Promise<ReadReply> {
  const task = await openPdf(request.bytes);
  try {
    const doc = await task.promise;
    let content: ReturnType<PageSources['content']> | undefined;
    const sources: PageSources = {
      doc,
      content: () => {
        content ??= import('./page-content.ts').then((m) => m.openPageContent(request.bytes));
        return content;
      },
      paths: { text: 0, 'content-stream': 0, 'operator-list': 0 },
    };
    const scans: PageScan[] = [];
    for (const number of request.pages) {
      scans.push(await readPage(sources, number, request.config, request.hasForm));
    }
    return { ok: true, scans, paths: sources.paths };
  } catch (error) {
    return error instanceof ParseFailure
      ? { ok: false, reason: error.reason, name: error.name, message: error.message }
      : {
          ok: false,
          name: error instanceof Error ? error.name : 'Error',
          message: error instanceof Error ? error.message : String(error),
        };
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

parentPort?.on('message', (request: ReadRequest) => {
  void read(request).then((reply) => parentPort?.postMessage(reply));
});
