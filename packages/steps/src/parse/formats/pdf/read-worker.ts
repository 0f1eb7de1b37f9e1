import { toReaderFailure } from '../../worker-failure.ts';
import type { LaidPage } from './laid-page.ts';
import type {
  Opened,
  PageRead,
  PdfDocumentRequest,
  PdfWorkerReply,
  PdfWorkerRequest,
  Rendered,
  ShareRequest,
} from './pdf-worker-pool.ts';
import { type ReadShare, readShare } from './read-share.ts';
import { renderPdfPage } from './render-page.ts';
import { hasFormFields, openPdf, type PdfDocument } from './scan-page.ts';
import { pdfStreamLimitExceeded, setPdfStreamLimit } from './stream-limit.ts';

// Entry of a pooled PDF reader, a child process started with a bounded V8 heap
// (pdf-worker-pool.ts): every pdf.js read of a document happens here, so that a document that
// exhausts memory ends this process, not the one that asked. It lives on between documents, so
// pdf.js and pdf-lib are loaded and compiled once. It holds at most one open document (a
// session: open, read, render, close) and reads copies for shares besides.

/**
 * Pages sent in one message at most: pages in several messages cost the parent 2 to 8 ms more CPU
 * per document than in one (0.5 to 1%, glpk.pdf and gmpl.pdf, decision 0041); a few pages a
 * message keep progress close to page by page.
 */
const PAGES_PER_MESSAGE = 8;

function send(message: unknown): void {
  process.send?.(message);
}

interface OpenDocument {
  readonly task: Awaited<ReturnType<typeof openPdf>>;
  readonly doc: PdfDocument;
  readonly request: PdfDocumentRequest;
  readonly hasForm: boolean;
}

let open: OpenDocument | undefined;

async function openDocument(request: PdfDocumentRequest): Promise<OpenDocument> {
  setPdfStreamLimit(request.streamLimit);
  const task = await openPdf(request.bytes);
  try {
    const doc = await task.promise;
    const hasForm = request.config.keyValue && (await hasFormFields(doc));
    return { task, doc, request, hasForm };
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw error;
  }
}

/**
 * Reads pages, sent as they are laid out, {@link PAGES_PER_MESSAGE} at a time ({@link PageRead});
 * the reply holds none.
 */
async function readPages(
  document: OpenDocument,
  pages: readonly number[],
  hasForm: boolean,
): Promise<ReadShare> {
  const { request, doc } = document;
  let laid: LaidPage[] = [];
  const flush = () => {
    if (laid.length > 0) send({ pagesRead: laid } satisfies PageRead);
    laid = [];
  };
  const { paths } = await readShare(
    request.bytes,
    doc,
    pages,
    request.config,
    hasForm,
    undefined,
    (page) => {
      laid.push(page);
      if (laid.length >= PAGES_PER_MESSAGE) flush();
    },
  );
  flush();
  return { pages: [], paths };
}

async function share(request: ShareRequest): Promise<ReadShare> {
  const document = await openDocument(request);
  try {
    return await readPages(document, request.pages, request.hasForm);
  } finally {
    await document.task.destroy().catch(() => undefined);
  }
}

function current(): OpenDocument {
  if (!open) throw new Error('no document is open on this PDF worker');
  return open;
}

async function close(): Promise<void> {
  const closing = open;
  open = undefined;
  await closing?.task.destroy().catch(() => undefined);
}

async function handle(request: PdfWorkerRequest): Promise<unknown> {
  switch (request.kind) {
    case 'open': {
      await close();
      open = await openDocument(request);
      return { numPages: open.doc.numPages, hasForm: open.hasForm } satisfies Opened;
    }
    case 'read': {
      const document = current();
      return readPages(document, request.pages, document.hasForm);
    }
    case 'render':
      return (await renderPdfPage(current().doc, request.page, request.dpi)) satisfies Rendered;
    case 'close':
      return close();
    case 'share':
      return share(request);
  }
}

/** The reply when a stream decoded past the thread's limit, whatever pdf.js made of it. */
const STREAM_TOO_LARGE: PdfWorkerReply<never> = {
  ok: false,
  reason: 'FILE_SIZE_TOO_LARGE',
  name: 'ParseFailure',
  message:
    'A stream of the PDF decodes past what one stream may hold (limits.expansionRatio and limits.maxUncompressedBytes): a decompression bomb.',
};

async function answer(request: PdfWorkerRequest): Promise<void> {
  let reply: PdfWorkerReply<unknown>;
  try {
    reply = { ok: true, value: await handle(request) };
  } catch (error) {
    reply = toReaderFailure(error);
  }
  // pdf.js may have thrown the limit's error on, or swallowed it and read on without the stream.
  if (request.kind !== 'close' && pdfStreamLimitExceeded()) reply = STREAM_TOO_LARGE;
  send(reply);
}

process.on('message', (request: PdfWorkerRequest) => void answer(request));
// The parent going away (its channel closing) ends the reader too.
process.on('disconnect', () => process.exit(0));
