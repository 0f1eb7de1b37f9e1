import type { FormatContext } from '../../format-context.ts';
import type { LaidPage } from './laid-page.ts';
import type { PageReadPath } from './read-page.ts';
import { type PdfDocument } from './scan-page.ts';
/** From this many pages on, pages are read by pooled worker threads. */
export declare const PDF_WORKER_THRESHOLD = 60;
/** The pages of a document, laid out, and how they were read. */
export interface ReadPages {
    readonly pages: LaidPage[];
    readonly paths: Record<PageReadPath, number>;
    /** Worker threads that read pages besides this one (0: none). */
    readonly threads: number;
}
/**
 * Reads and lays out the selected pages: in this thread for short documents, else in contiguous ranges, the
 * first here and the others on pooled worker threads (one per further core; each opens its own
 * copy of the document), so that large born-digital PDFs use every core. Falls back to this
 * thread when a worker cannot run.
 */
export declare function readPages(bytes: Uint8Array, doc: PdfDocument, pages: readonly number[], context: FormatContext, hasForm: boolean, threshold?: number): Promise<ReadPages>;
//# sourceMappingURL=read-pages.d.ts.map