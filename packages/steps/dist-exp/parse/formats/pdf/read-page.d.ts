import type { ResolvedParseConfig } from '../../resolve-parse-config.ts';
import type { PageContentSource } from './page-content.ts';
import { type PageScan, type PdfDocument } from './scan-page.ts';
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
export declare function readPage(sources: PageSources, number: number, config: ResolvedParseConfig, hasForm: boolean): Promise<PageScan>;
//# sourceMappingURL=read-page.d.ts.map