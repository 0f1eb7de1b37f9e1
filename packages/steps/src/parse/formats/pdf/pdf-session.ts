import {
  expansionLimit,
  type FormatContext,
  MAX_IMAGE_PIXELS,
  type ParseLimits,
} from '../../format-context.ts';
import { ParseFailure } from '../../parse-failure.ts';
import type { LaidPage } from './laid-page.ts';
import {
  type Opened,
  openOnWorker,
  pdfWorkersAvailable,
  type Rendered,
} from './pdf-worker-pool.ts';
import { type ReadShare, readShare } from './read-share.ts';
import { renderPdfPage } from './render-page.ts';
import { hasFormFields, openPdf, pdfError } from './scan-page.ts';

/**
 * One open PDF as {@link parsePdf} reads it: pdf.js in a pooled reader process with a bounded
 * heap (the default), or in this thread (`limits.workerHeapMb: 0`, or a runtime without worker
 * threads). Every method rejects with a {@link ParseFailure}, or with the signal's reason once
 * the parse is aborted.
 */
export interface PdfSession extends Opened {
  /** The heap of the reader process that reads the document, MiB; 0 when read in this thread. */
  readonly heapMb: number;
  /** The most one decoded stream of it may hold, bytes. */
  readonly streamLimit: number;
  /**
   * `last`: nothing but the close follows unless a page is a scan (rendered for OCR next), so a
   * reader may close the document as it answers.
   */
  read(
    pages: readonly number[],
    onPage?: (page: LaidPage) => void,
    last?: boolean,
  ): Promise<ReadShare>;
  /** The page rendered to gray pixels at `dpi` (for OCR). */
  render(page: number, dpi: number): Promise<Rendered>;
  close(): Promise<void>;
}

/**
 * Heap of a PDF worker whatever the document's size, MiB: pdf.js loaded (50 MiB compiled, 150
 * under tsx), its fonts, a page's objects, the laid-out pages until they are sent.
 */
export const PDF_HEAP_FLOOR_MB = 512;

/** Heap added per MiB of the file, MiB. */
export const PDF_HEAP_PER_MIB = 32;

/**
 * The heap of the reader process that reads a PDF of `fileBytes`, MiB: {@link PDF_HEAP_PER_MIB}
 * per MiB of the file, at least {@link PDF_HEAP_FLOOR_MB}, rounded up to a power of two (so that
 * workers of one size serve many documents), at most `limits.workerHeapMb`.
 */
export function pdfHeapMb(limits: ParseLimits, fileBytes: number): number {
  const wanted = Math.max(PDF_HEAP_FLOOR_MB, PDF_HEAP_PER_MIB * (fileBytes / (1024 * 1024)));
  return Math.min(limits.workerHeapMb, 2 ** Math.ceil(Math.log2(wanted)));
}

/**
 * The most one decoded stream may hold, bytes: what the whole file may expand to, or an image
 * of {@link MAX_IMAGE_PIXELS} in four bytes per pixel when that is more, at most
 * `limits.maxUncompressedBytes`.
 */
export function pdfStreamLimit(limits: ParseLimits, fileBytes: number): number {
  return Math.min(
    limits.maxUncompressedBytes,
    Math.max(expansionLimit(limits, fileBytes), 4 * MAX_IMAGE_PIXELS),
  );
}

/** A rejection as a {@link ParseFailure}, unless the parse was aborted. */
function failure(signal: AbortSignal) {
  return (error: unknown): never => {
    signal.throwIfAborted();
    throw error instanceof ParseFailure ? error : pdfError(error);
  };
}

/** Opens a PDF where it will be read: see {@link PdfSession}. */
export async function openPdfSession(
  bytes: Uint8Array,
  context: FormatContext,
): Promise<PdfSession> {
  const { limits, signal } = context;
  const heapMb =
    pdfWorkersAvailable() && limits.workerHeapMb > 0 ? pdfHeapMb(limits, bytes.length) : 0;
  const streamLimit = pdfStreamLimit(limits, bytes.length);
  const fail = failure(signal);
  if (heapMb > 0) {
    // The reader opens the document while the expansion check runs (its heap and streams are
    // bounded); no page is read before the check passed, and a failed check closes it again.
    const [opened, checked] = await Promise.allSettled([
      openOnWorker({ bytes, config: context.config, streamLimit }, heapMb, signal),
      context.expansion,
    ]);
    if (checked.status === 'rejected') {
      if (opened.status === 'fulfilled') await opened.value.close();
      return fail(checked.reason);
    }
    if (opened.status === 'rejected') return fail(opened.reason);
    const session = opened.value;
    return {
      numPages: session.numPages,
      hasForm: session.hasForm,
      heapMb,
      streamLimit,
      read: (pages, onPage, last) => session.read(pages, signal, onPage, last).catch(fail),
      render: (page, dpi) => session.render(page, dpi, signal).catch(fail),
      close: () => session.close(),
    };
  }
  // pdf.js in this thread is bounded by nothing but the process: it waits for the check.
  await context.expansion?.catch(fail);
  return openInThread(bytes, context, streamLimit);
}

/** The document read by pdf.js in this thread, unbounded by any heap limit but the process's. */
async function openInThread(
  bytes: Uint8Array,
  context: FormatContext,
  streamLimit: number,
): Promise<PdfSession> {
  const { signal, config } = context;
  const fail = failure(signal);
  const task = await openPdf(bytes);
  const onAbort = () => void task.destroy();
  signal.addEventListener('abort', onAbort, { once: true });
  const close = async () => {
    signal.removeEventListener('abort', onAbort);
    await task.destroy().catch(() => undefined);
  };
  try {
    const doc = await task.promise;
    const hasForm = config.keyValue && (await hasFormFields(doc));
    return {
      numPages: doc.numPages,
      hasForm,
      heapMb: 0,
      streamLimit,
      read: (pages, onPage) =>
        readShare(bytes, doc, pages, config, hasForm, signal, onPage).catch(fail),
      render: (page, dpi) => renderPdfPage(doc, page, dpi).catch(fail),
      close,
    };
  } catch (error) {
    await close();
    return fail(error);
  }
}
