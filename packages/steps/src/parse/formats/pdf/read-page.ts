import type { ResolvedParseConfig } from '../../resolve-parse-config.ts';
import { readContentGraphics, UnsupportedContent } from './content-graphics.ts';
import type { PageContentSource } from './page-content.ts';
import { graphicsSink } from './page-graphics.ts';
import { findRuledTables } from './ruled-tables.ts';
import {
  looksScanned,
  type PageScan,
  type PageText,
  type PdfDocument,
  type PdfPage,
  placePage,
  readPageText,
  scanOpenPage,
  scanPage,
} from './scan-page.ts';

/** How a page was read, for tests and profiling. */
export type PageReadPath = 'text' | 'content-stream' | 'operator-list';

/** Where the pages of one document are read from: pdf.js, and its raw content streams. */
export interface PageSources {
  readonly doc: PdfDocument;
  /** Opened on first use: pages that need no graphics never pay for it. */
  content(): Promise<PageContentSource | undefined>;
  /** Counts of how pages were read. */
  readonly paths: Record<PageReadPath, number>;
}

/**
 * Reads one page like {@link scanPage}, but takes ruling lines and image placements from the raw
 * content stream instead of pdf.js's operator list, which costs as much as the text itself. The
 * operator list (through `scanPage`) stays the path for pages that may be scans (little text and
 * images covering much of the page, as the content stream tells), pages with form fields, and
 * content this reader does not model ({@link UnsupportedContent}). A page with little text and
 * no such image (a section's last line on a page of its own) is read here: it cannot be a scan.
 * Bold text is known from the text content's font styles, whichever path reads the page.
 */
export async function readPage(
  sources: PageSources,
  number: number,
  config: ResolvedParseConfig,
  hasForm: boolean,
): Promise<PageScan> {
  if (hasForm) {
    sources.paths['operator-list']++;
    return scanPage(sources.doc, number, config, hasForm);
  }
  const page = await sources.doc.getPage(number);
  try {
    const text = await readPageText(page, config);
    const fast = await readFast(sources, page, text, number, config);
    if (fast) return fast;
    // The text already read serves the operator list's reading too.
    sources.paths['operator-list']++;
    return await scanOpenPage(page, text, number, config, hasForm);
  } finally {
    page.cleanup();
  }
}

/** The page without the operator list, or `undefined` when it needs it. */
async function readFast(
  sources: PageSources,
  page: PdfPage,
  text: PageText,
  number: number,
  config: ResolvedParseConfig,
): Promise<PageScan | undefined> {
  const { complex, scarce, withGraphics } = text;
  const { runs, frame, upright, geometry } = placePage(page, text, config);
  const sink = graphicsSink(upright);
  if (withGraphics) {
    const pageContent = (await sources.content())?.page(page.ref);
    if (!pageContent) return undefined;
    try {
      readContentGraphics(pageContent.content, pageContent.resources, sink);
    } catch (error) {
      if (error instanceof UnsupportedContent) return undefined;
      throw error;
    }
    // Every engine reads the graphics of a page with little text (readPageText).
    if (scarce && looksScanned(runs, sink.graphics.images, frame)) return undefined;
    sources.paths['content-stream']++;
  } else {
    sources.paths.text++;
  }
  const { segments, images } = sink.graphics;
  return {
    number,
    ...geometry,
    runs,
    tables: config.tables ? findRuledTables(segments) : [],
    images,
    fields: [],
    // A scan would have taken the operator list above.
    scanned: false,
    complex,
  };
}
