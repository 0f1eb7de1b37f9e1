import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FormatContext } from '../../parse-document.ts';
import { ParseFailure } from '../../parse-failure.ts';
import type { ResolvedParseConfig } from '../../resolve-parse-config.ts';
import { type PageScan, type PdfDocument, pdfError, scanPage } from './scan-page.ts';

/** From this many pages on, pages are scanned by worker threads (one per core, up to 4). */
export const PDF_WORKER_THRESHOLD = 60;

/** The message a scan worker receives. */
export interface ScanRequest {
  readonly bytes: Uint8Array;
  readonly pages: readonly number[];
  readonly config: ResolvedParseConfig;
  readonly hasForm: boolean;
}

/** The message a scan worker sends back. */
export type ScanReply =
  | { readonly ok: true; readonly scans: PageScan[] }
  | {
      readonly ok: false;
      readonly reason?: string;
      readonly name: string;
      readonly message: string;
    };

/**
 * Worker threads run the compiled module next to this one. Under a TypeScript loader (tsx) the
 * `.ts` source works too, because workers inherit the parent's `execArgv`; in any other runtime
 * (vitest's transform, for one) there is no worker and pages are scanned in this thread.
 */
function workerUrl(): URL | undefined {
  const self = import.meta.url;
  if (self.endsWith('.js')) return new URL('./scan-worker.js', self);
  if (self.endsWith('.ts') && process.execArgv.some((arg) => arg.includes('tsx'))) {
    return new URL('./scan-worker.ts', self);
  }
  return undefined;
}

function runWorker(url: URL, request: ScanRequest, signal: AbortSignal): Promise<PageScan[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData: request });
    const onAbort = () => {
      void worker.terminate();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (reply: ScanReply) => {
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (reply.ok) resolve(reply.scans);
      else if (reply.reason) reject(new ParseFailure(reply.reason as never, reply.message));
      else reject(Object.assign(new Error(reply.message), { name: reply.name }));
    });
    worker.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(error);
    });
  });
}

async function scanInThread(
  doc: PdfDocument,
  pages: readonly number[],
  context: FormatContext,
  hasForm: boolean,
): Promise<PageScan[]> {
  const scans: PageScan[] = [];
  for (const number of pages) {
    context.signal.throwIfAborted();
    try {
      scans.push(await scanPage(doc, number, context.config, hasForm));
    } catch (error) {
      context.signal.throwIfAborted();
      if (error instanceof ParseFailure) throw error;
      throw pdfError(error);
    }
  }
  return scans;
}

/**
 * Scans the selected pages: in this thread for short documents, else split into contiguous
 * ranges over worker threads (each opens its own copy of the document), so that large born-digital
 * PDFs use every core. Falls back to this thread when workers are unavailable.
 */
export async function scanPages(
  bytes: Uint8Array,
  doc: PdfDocument,
  pages: readonly number[],
  context: FormatContext,
  hasForm: boolean,
): Promise<PageScan[]> {
  const url = workerUrl();
  const threads = Math.min(4, availableParallelism());
  if (!url || threads < 2 || pages.length < PDF_WORKER_THRESHOLD) {
    return scanInThread(doc, pages, context, hasForm);
  }
  const size = Math.ceil(pages.length / threads);
  const parts: number[][] = [];
  for (let i = 0; i < pages.length; i += size) parts.push(pages.slice(i, i + size));
  try {
    const results = await Promise.all(
      parts.map((part) =>
        runWorker(url, { bytes, pages: part, config: context.config, hasForm }, context.signal),
      ),
    );
    return results.flat();
  } catch (error) {
    context.signal.throwIfAborted();
    if (error instanceof ParseFailure) throw error;
    if (error instanceof Error && /PasswordException|InvalidPDFException/.test(error.name)) {
      throw pdfError(error);
    }
    // A worker that could not start (missing loader, resource limits): scan here instead.
    return scanInThread(doc, pages, context, hasForm);
  }
}
