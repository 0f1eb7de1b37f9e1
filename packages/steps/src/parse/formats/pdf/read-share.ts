import type { ResolvedParseConfig } from '../../resolve-parse-config.ts';
import { type LaidPage, layOutPage } from './laid-page.ts';
import { type PageReadPath, type PageSources, readPage } from './read-page.ts';
import type { PdfDocument } from './scan-page.ts';
import { forgetInflated } from './zlib-inflate.ts';

/** A share of a document's pages, read and laid out, and how they were read. */
export interface ReadShare {
  readonly pages: LaidPage[];
  readonly paths: Record<PageReadPath, number>;
}

/**
 * Reads `pages` of an open document in this thread, each laid out as soon as it is read (the
 * calling thread and the PDF reader processes alike). `signal` is checked before each page,
 * after a turn of the event loop: pdf.js settles a page's reads in microtasks, so without the
 * turn a document read in the calling thread would hold it (requests, timers, a parse's time
 * budget) until its last page. `onPage` hears of each page once it is laid out.
 */
export async function readShare(
  bytes: Uint8Array,
  doc: PdfDocument,
  pages: readonly number[],
  config: ResolvedParseConfig,
  hasForm: boolean,
  signal?: AbortSignal,
  onPage?: (page: LaidPage) => void,
): Promise<ReadShare> {
  let content: ReturnType<PageSources['content']> | undefined;
  const sources: PageSources = {
    doc,
    content: () => {
      content ??= import('./page-content.ts').then((m) => m.openPageContent(bytes));
      return content;
    },
    paths: { text: 0, 'content-stream': 0, 'operator-list': 0 },
  };
  const laid: LaidPage[] = [];
  try {
    for (const number of pages) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
      // What zlib inflated for pdf.js serves this page's content stream, not the next page's.
      forgetInflated();
      const page = layOutPage(await readPage(sources, number, config, hasForm), config);
      laid.push(page);
      onPage?.(page);
    }
  } finally {
    forgetInflated();
  }
  return { pages: laid, paths: sources.paths };
}
