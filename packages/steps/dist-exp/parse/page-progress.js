/**
 * Counts pages for a parse's `onProgress` listener. A listener that throws is the caller's bug,
 * not the document's: its error is dropped so that the parse goes on.
 */
export function pageProgress(onProgress) {
    let pageCount = 0;
    let pagesDone = 0;
    const tell = () => {
        try {
            onProgress({ pagesDone, pageCount });
        }
        catch {
            // Progress is advisory.
        }
    };
    return {
        start(count) {
            pageCount = count;
            pagesDone = 0;
            tell();
        },
        pageDone() {
            pagesDone = Math.min(pagesDone + 1, pageCount);
            tell();
        },
    };
}
//# sourceMappingURL=page-progress.js.map