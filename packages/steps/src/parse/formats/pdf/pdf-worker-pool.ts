import { availableParallelism, loadavg } from 'node:os';
import { askChild, childEntry, startChild } from '../../contained-process.ts';
import type { GrayImage } from '../../ocr/gray-image.ts';
import { type Reader as Lease, readerPool } from '../../reader-pool.ts';
import type { ResolvedParseConfig } from '../../resolve-parse-config.ts';
import { fromReaderFailure, type ReaderFailure, workerFailure } from '../../worker-failure.ts';
import type { LaidPage } from './laid-page.ts';
import { pdfJsPreloadUrl } from './pdfjs.ts';
import type { PageReadPath } from './read-page.ts';
import type { ReadShare } from './read-share.ts';

/** A document as a PDF worker receives it. */
export interface PdfDocumentRequest {
  readonly bytes: Uint8Array;
  readonly config: ResolvedParseConfig;
  /** The most one decoded stream may hold, bytes (stream-limit.ts). */
  readonly streamLimit: number;
}

/** Open a document and keep it open for the requests that follow (a session). */
export interface OpenRequest extends PdfDocumentRequest {
  readonly kind: 'open';
}

/**
 * Read and lay out pages of the open document: the pages come in {@link PageRead} messages, then
 * the reply, whose share holds no pages.
 */
export interface ReadRequest {
  readonly kind: 'read';
  readonly pages: readonly number[];
  /**
   * Only a close follows, unless a page needs rendering: the reader then closes the document
   * itself after its reply when no page read is a scan ({@link PagesReply}).
   */
  readonly last?: boolean;
}

/** Render a page of the open document to gray pixels, for OCR. */
export interface RenderRequest {
  readonly kind: 'render';
  readonly page: number;
  readonly dpi: number;
}

/** Close the open document. */
export interface CloseRequest {
  readonly kind: 'close';
}

/**
 * Open a copy of a document, read a share of its pages, close it: one request, no session. The
 * pages come as for a {@link ReadRequest}.
 */
export interface ShareRequest extends PdfDocumentRequest {
  readonly kind: 'share';
  readonly pages: readonly number[];
  readonly hasForm: boolean;
}

/** What a PDF worker is asked. */
export type PdfWorkerRequest =
  | OpenRequest
  | ReadRequest
  | RenderRequest
  | CloseRequest
  | ShareRequest;

/**
 * What a PDF reader sends as its pages are laid out, a few at a time (read-worker.ts),
 * before its reply: this process takes them in (deserialises them) while the reader reads the
 * next ones, instead of taking a whole document's pages in one message after the last (14 ms for
 * glpk.pdf's 177 pages, 2 MB; decision 0041).
 */
export interface PageRead {
  readonly pagesRead: readonly LaidPage[];
}

/**
 * What a PDF worker answers a read or a share: the pages laid out since its last
 * {@link PageRead}, and, for a read asked as the last, whether it closed the document after
 * answering (then no close is asked for).
 */
export interface PagesReply extends ReadShare {
  readonly closed?: boolean;
}

/** What a PDF worker answers an open request. */
export interface Opened {
  readonly numPages: number;
  readonly hasForm: boolean;
}

/** What a PDF worker answers a render request. */
export interface Rendered {
  readonly image: GrayImage;
  readonly dpi: number;
}

/** A PDF worker's reply: the value asked for, or the error reading failed with. */
export type PdfWorkerReply<T> = { readonly ok: true; readonly value: T } | ReaderFailure;

/** Idle readers close after this long, so that an idle process holds no children for long. */
const IDLE_MS = 30_000;

/** Workers at most: one per core, up to 4. */
export const PDF_WORKERS = Math.min(4, availableParallelism());

/** Idle workers kept at most (those of other heap sizes are closed first). */
const IDLE_KEPT = PDF_WORKERS + 1;

const start = childEntry(import.meta.url, 'read-worker');

/** True when PDFs can be read by reader processes here. */
export function pdfWorkersAvailable(): boolean {
  return start !== undefined;
}

/**
 * True when a core is idle (the load average of the last minute below the core count by one):
 * only then does a second thread reading pages shorten a parse. On a busy machine (this
 * process's other parses, or anything else) another thread only adds contention and its own
 * copy of the document and its fonts. Platforms without a load average (Windows: 0) count as
 * idle.
 */
export function spareCore(): boolean {
  return (loadavg()[0] ?? 0) <= availableParallelism() - 1;
}

const pool = readerPool({
  spawn: async (heapMb) => {
    if (!start) throw new Error('PDF reader processes are not available in this runtime');
    // pdf.js is loaded first, before any loader the reader runs under (pdfjs.ts).
    return startChild(start, heapMb, [await pdfJsPreloadUrl()]);
  },
  idleKept: IDLE_KEPT,
  idleMs: IDLE_MS,
});

/**
 * Asks a leased worker one thing. Rejects with the error reading failed with (a
 * ParseFailure when the worker named a reason), with FILE_SIZE_TOO_LARGE or CORRUPT_FILE
 * when the worker died, during this request or before it (out of its heap, or otherwise), with
 * the signal's reason on an abort (the worker is terminated then).
 */
function ask<T>(
  lease: Lease,
  request: PdfWorkerRequest,
  signal: AbortSignal,
  onPage?: (page: LaidPage) => void,
): Promise<T> {
  // A lease whose reader already died is askChild's to answer, as a death during the request is:
  // out of its heap (FILE_SIZE_TOO_LARGE), or otherwise (CORRUPT_FILE).
  return askChild<PdfWorkerReply<T> | PageRead, T>(lease.child, request, signal, {
    reply: (reply) => {
      if ('pagesRead' in reply) {
        for (const page of reply.pagesRead) onPage?.(page);
        return undefined;
      }
      return reply.ok ? { value: reply.value } : { error: fromReaderFailure(reply) };
    },
    failed: (error) => {
      lease.dead = true;
      return workerFailure('PDF', lease.heapMb, error);
    },
    answered: () => undefined,
  });
}

/**
 * Asks a leased worker for pages (a read or a share), as {@link ask} does: the share it answers
 * with the pages that came a few at a time before its reply, then those of the reply.
 */
async function askPages(
  lease: Lease,
  request: ReadRequest | ShareRequest,
  signal: AbortSignal,
  onPage?: (page: LaidPage) => void,
): Promise<PagesReply> {
  const pages: LaidPage[] = [];
  const take = (page: LaidPage) => {
    pages.push(page);
    onPage?.(page);
  };
  const reply = await ask<PagesReply>(lease, request, signal, take);
  for (const page of reply.pages) take(page);
  return { ...reply, pages };
}

/** Idle PDF readers kept now. */
export function idlePdfReaders(): number {
  return pool.idle;
}

/**
 * Reads a share of a document's pages on a pooled worker that opens its own copy, and returns
 * the worker to the pool. Rejects as {@link ask} does.
 */
export async function readOnWorker(
  request: Omit<ShareRequest, 'kind'>,
  heapMb: number,
  signal: AbortSignal,
  onPage?: (page: LaidPage) => void,
): Promise<ReadShare> {
  signal.throwIfAborted();
  const lease = await pool.acquire(heapMb);
  try {
    const { pages, paths } = await askPages(lease, { kind: 'share', ...request }, signal, onPage);
    return { pages, paths };
  } finally {
    // A share that failed closed its copy of the document: the reader is as good as before
    // (a dead one is not kept).
    pool.release(lease);
  }
}

/** A document open in a pooled reader process, until {@link WorkerSession.close}. */
export interface WorkerSession extends Opened {
  /**
   * `last`: only a close follows unless a page is a scan; the reader then closes the document
   * after answering, and {@link WorkerSession.close} needs no round trip.
   */
  read(
    pages: readonly number[],
    signal: AbortSignal,
    onPage?: (page: LaidPage) => void,
    last?: boolean,
  ): Promise<ReadShare>;
  render(page: number, dpi: number, signal: AbortSignal): Promise<Rendered>;
  /** Closes the document and returns the worker to the pool (or ends it, after a failure). */
  close(): Promise<void>;
}

/**
 * Opens a document in a pooled reader process whose heap is `heapMb`: pdf.js and everything it
 * builds for the document live there, so a document that needs more ends that thread, not the
 * process. Requests are answered one at a time, in order.
 */
export async function openOnWorker(
  request: Omit<OpenRequest, 'kind'>,
  heapMb: number,
  signal: AbortSignal,
): Promise<WorkerSession> {
  signal.throwIfAborted();
  const lease = await pool.acquire(heapMb);
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(asking: () => Promise<T>): Promise<T> => {
    const next = queue.then(asking);
    queue = next.catch(() => undefined);
    return next;
  };
  let opened: Opened;
  try {
    opened = await serial(() => ask<Opened>(lease, { kind: 'open', ...request }, signal));
  } catch (error) {
    if (lease.dead) throw error;
    // A document pdf.js refuses leaves the worker as good as before.
    pool.release(lease);
    throw error;
  }
  let closed = false;
  // The reader closed the document after its last read (PagesReply.closed).
  let closedThere = false;
  return {
    ...opened,
    read: (pages, signal, onPage, last) =>
      serial(async () => {
        const {
          pages: read,
          paths,
          closed,
        } = await askPages(lease, { kind: 'read', pages, last: last === true }, signal, onPage);
        closedThere ||= closed === true;
        return { pages: read, paths };
      }),
    render: (page, dpi, signal) =>
      serial(() => ask<Rendered>(lease, { kind: 'render', page, dpi }, signal)),
    close: async () => {
      if (closed) return;
      closed = true;
      await queue;
      if (lease.dead) return;
      if (closedThere) {
        pool.release(lease);
        return;
      }
      try {
        await ask(lease, { kind: 'close' }, AbortSignal.timeout(5000));
        pool.release(lease);
      } catch {
        lease.dead = true;
        lease.child.process.kill('SIGKILL');
      }
    },
  };
}

/** What a worker's share read adds up to, page paths summed (for {@link ReadShare}). */
export function sumPaths(
  shares: readonly { readonly paths: Record<PageReadPath, number> }[],
): Record<PageReadPath, number> {
  const paths: Record<PageReadPath, number> = { text: 0, 'content-stream': 0, 'operator-list': 0 };
  for (const share of shares) {
    for (const key of Object.keys(paths) as PageReadPath[]) paths[key] += share.paths[key];
  }
  return paths;
}

/** Terminates idle PDF workers (they are started again on demand). */
export function closePdfWorkers(): Promise<void> {
  return pool.close();
}
