import type { FormatContext } from '../../format-context.ts';
import { ParseFailure } from '../../parse-failure.ts';
import type { LaidPage } from './laid-page.ts';
import type { PdfSession } from './pdf-session.ts';
import { PDF_WORKERS, readOnWorker, sumPaths } from './pdf-worker-pool.ts';
import type { PageReadPath } from './read-page.ts';
import { pdfError } from './scan-page.ts';

/** From this many pages on, further pooled reader processes read shares of the pages. */
export const PDF_WORKER_THRESHOLD = 60;

/** Pages the session's thread reads in the time a worker takes to open its copy of the document. */
const HEAD_START = 12;

/** The pages of a document, laid out, and how they were read. */
export interface ReadPages {
  readonly pages: LaidPage[];
  readonly paths: Record<PageReadPath, number>;
  /** Worker threads that read pages besides the session's (0: none). */
  readonly threads: number;
}

/** A page read is final unless it is a scan, which is final once OCRed (parse-pdf.ts). */
function countPage(context: FormatContext, scanned: boolean): void {
  if (!scanned) context.progress?.pageDone();
}

/**
 * Reads and lays out the selected pages of an open document: all of them where it is open (a
 * reader process, or this thread) for short documents, else in contiguous ranges, the
 * first where it is open and the others in further pooled reader processes of the same heap (one
 * per further core; each opens its own copy of the document), so that large born-digital PDFs
 * use every core. A worker that fails fails the parse with its reason: no page of a document is
 * ever read outside the limits its session has.
 */
export async function readPages(
  bytes: Uint8Array,
  session: PdfSession,
  pages: readonly number[],
  context: FormatContext,
  threshold = PDF_WORKER_THRESHOLD,
): Promise<ReadPages> {
  context.signal.throwIfAborted();
  const onPage =
    context.progress && ((page: { scanned: boolean }) => countPage(context, page.scanned));
  if (session.heapMb === 0 || pages.length < threshold) {
    // The whole document in one read: the scans among its pages are all that may be rendered.
    return { ...(await session.read(pages, onPage, true)), threads: 0 };
  }
  // The session's thread reads the first share with the document it already has open, while one
  // worker per other core reads each further share: no thread waits, none opens a copy for
  // nothing. A worker first opens its own copy of the document while the session's thread,
  // which opened it already, reads: that share is larger by about what that opening costs.
  const head = Math.min(HEAD_START, Math.floor(pages.length / (2 * PDF_WORKERS)));
  const size = Math.ceil((pages.length - head) / PDF_WORKERS);
  const ownSize = size + head;
  const own = pages.slice(0, ownSize);
  const parts: number[][] = [];
  for (let i = ownSize; i < pages.length; i += size) parts.push(pages.slice(i, i + size));
  const workers = parts.map((part) =>
    readOnWorker(
      {
        bytes,
        pages: part,
        config: context.config,
        hasForm: session.hasForm,
        streamLimit: session.streamLimit,
      },
      session.heapMb,
      context.signal,
      onPage,
    ),
  );
  // Settled at once, so that a failing worker is not an unhandled rejection meanwhile.
  const settled = Promise.allSettled(workers);
  try {
    const mine = await session.read(own, onPage);
    const replies = await Promise.all(workers);
    return {
      pages: [...mine.pages, ...replies.flatMap((reply) => reply.pages)],
      paths: sumPaths([mine, ...replies]),
      threads: parts.length,
    };
  } catch (error) {
    await settled;
    context.signal.throwIfAborted();
    throw error instanceof ParseFailure ? error : pdfError(error);
  }
}
