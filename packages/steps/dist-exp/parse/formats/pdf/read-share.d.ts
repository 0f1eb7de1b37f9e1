import type { ResolvedParseConfig } from '../../resolve-parse-config.ts';
import { type LaidPage } from './laid-page.ts';
import { type PageReadPath } from './read-page.ts';
import type { PdfDocument } from './scan-page.ts';
/** A share of a document's pages, read and laid out, and how they were read. */
export interface ReadShare {
    readonly pages: LaidPage[];
    readonly paths: Record<PageReadPath, number>;
}
/**
 * Reads `pages` of an open document in this thread, each laid out as soon as it is read (the
 * calling thread and the PDF worker threads alike). `signal` is checked before each page;
 * `onPage` hears of each page once it is laid out.
 */
export declare function readShare(bytes: Uint8Array, doc: PdfDocument, pages: readonly number[], config: ResolvedParseConfig, hasForm: boolean, signal?: AbortSignal, onPage?: (page: LaidPage) => void): Promise<ReadShare>;
//# sourceMappingURL=read-share.d.ts.map