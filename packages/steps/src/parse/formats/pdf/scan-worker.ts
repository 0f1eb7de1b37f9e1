import { parentPort, workerData } from 'node:worker_threads';
import { ParseFailure } from '../../parse-failure.ts';
import { openPdf, type PageScan, scanPage } from './scan-page.ts';
import type { ScanReply, ScanRequest } from './scan-pages.ts';

// Entry of a PDF scan worker thread: scans its share of the pages and sends them back.
const request = workerData as ScanRequest;
let reply: ScanReply;
const task = await openPdf(request.bytes);
try {
  const doc = await task.promise;
  const scans: PageScan[] = [];
  for (const number of request.pages)
    scans.push(await scanPage(doc, number, request.config, request.hasForm));
  reply = { ok: true, scans };
} catch (error) {
  reply =
    error instanceof ParseFailure
      ? { ok: false, reason: error.reason, name: error.name, message: error.message }
      : {
          ok: false,
          name: error instanceof Error ? error.name : 'Error',
          message: error instanceof Error ? error.message : String(error),
        };
} finally {
  await task.destroy().catch(() => undefined);
}
parentPort?.postMessage(reply);
