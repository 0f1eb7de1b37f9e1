import { toReaderFailure } from '../../worker-failure.ts';
import type { LaidPage } from './laid-page.ts';
import type {
  Opened,
  PageRead,
  PagesReply,
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
 * message keep progress close to page by page. The last ones come with the reply.
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

/** A share read here, and whether a page of it is a scan (to be rendered for OCR next). */
interface SharePages {
  readonly share: ReadShare;
  readonly scanned: boolean;
}

/**
 * Reads pages, sent as they are laid out, {@link PAGES_PER_MESSAGE} at a time ({@link PageRead});
 * the reply holds those laid out since the last such message (a short document's pages all come
 * with the reply: one message, and one wake-up of the parent, fewer).
 */
async function readPages(
  document: OpenDocument,
  pages: readonly number[],
  hasForm: boolean,
): Promise<SharePages> {
  const { request, doc } = document;
  let laid: LaidPage[] = [];
  let scanned = false;
  const { paths } = await readShare(
    request.bytes,
    doc,
    pages,
    request.config,
    hasForm,
    undefined,
    (page) => {
      scanned ||= page.scanned;
      laid.push(page);
      if (laid.length < PAGES_PER_MESSAGE) return;
      send({ pagesRead: laid } satisfies PageRead);
      laid = [];
    },
  );
  return { share: { pages: laid, paths }, scanned };
}

/**
 * Work that waits until the reply is sent: closing a document read for the last time. The
 * parent goes on meanwhile; a request that comes before it is done opens its document beside
 * the one being closed.
 */
let afterReply: (() => Promise<void>) | undefined;

async function share(request: ShareRequest): Promise<ReadShare> {
  const document = await openDocument(request);
  const destroy = () => document.task.destroy().catch(() => undefined);
  try {
    const { share } = await readPages(document, request.pages, request.hasForm);
    afterReply = destroy;
    return share;
  } catch (error) {
    await destroy();
    throw error;
  }
}

/**
 * Reads pages of the open document. Asked with `last` (only a close would follow, unless a page
 * needs rendering for OCR) and with no scan among the pages, it closes the document after the
 * reply, which says so (`closed`): the parent returns the reader without asking for the close.
 */
async function readOpen(pages: readonly number[], last: boolean): Promise<PagesReply> {
  const document = current();
  const { share, scanned } = await readPages(document, pages, document.hasForm);
  if (!last || scanned) return share;
  afterReply = close;
  return { ...share, closed: true };
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
    case 'read':
      return readOpen(request.pages, request.last === true);
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
  const after = afterReply;
  afterReply = undefined;
  await after?.();
}

process.on('message', (request: PdfWorkerRequest) => void answer(request));
// The parent going away (its channel closing) ends the reader too.
process.on('disconnect', () => process.exit(0));
