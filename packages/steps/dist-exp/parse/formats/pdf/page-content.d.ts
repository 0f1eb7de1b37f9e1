import type { ContentResources } from './content-graphics.ts';
/** A page's decoded content and the resources its names refer to. */
export interface PageContent {
    readonly content: Uint8Array;
    readonly resources: ContentResources;
}
/** Raw page content streams of a document, by pdf.js page reference. */
export interface PageContentSource {
    /** `undefined` when the page cannot be read here (the caller falls back to pdf.js). */
    page(ref: {
        num: number;
        gen: number;
    } | null): PageContent | undefined;
}
/**
 * Opens a document a second time, to reach the raw content streams pdf.js keeps in its worker
 * half: objects are parsed on demand ({@link lazyObjects}), and only trusted when they are what
 * pdf.js's reference says they are (a page, a stream). `undefined` for an encrypted or
 * unreadable document: its pages then take pdf.js's operator list.
 */
export declare function openPageContent(bytes: Uint8Array): PageContentSource | undefined;
//# sourceMappingURL=page-content.d.ts.map