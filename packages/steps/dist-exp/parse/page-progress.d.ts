/** Progress of one parse: pages whose content is final, of the pages it parses. */
export interface ParseProgress {
    readonly pagesDone: number;
    readonly pageCount: number;
}
/** What a format parser tells about its pages (`FormatContext.progress`). */
export interface PageProgress {
    /** The parse covers `pageCount` pages (after page ranges). */
    start(pageCount: number): void;
    /** One more page is final: read and laid out, or OCRed. */
    pageDone(): void;
}
/**
 * Counts pages for a parse's `onProgress` listener. A listener that throws is the caller's bug,
 * not the document's: its error is dropped so that the parse goes on.
 */
export declare function pageProgress(onProgress: (progress: ParseProgress) => void): PageProgress;
//# sourceMappingURL=page-progress.d.ts.map