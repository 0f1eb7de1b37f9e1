/** What {@link measurePdfStreams} found. */
export interface PdfStreamsMeasure {
    readonly streams: number;
    /** What the streams other than images expand to. */
    readonly inflatedBytes: number;
    /** What the image streams expand to. */
    readonly imageBytes: number;
}
/**
 * Inflates every FlateDecode stream of a PDF (content streams, fonts, images, object and xref
 * streams: any `stream` whose data opens with a zlib header) to count what the file really
 * expands to, before pdf.js reads it, and stops as soon as the count passes `limit`: a
 * FILE_SIZE_TOO_LARGE {@link ParseFailure} then. Streams are found by their keyword, not through
 * the cross-reference table, so a damaged table hides none; encrypted streams (not zlib until
 * decrypted) are not counted.
 *
 * Image XObjects are the exception: a scanned page's FlateDecode image of mostly white paper
 * expands a hundred times or more, as no bomb-free text does. Each counts against what its own
 * dimensions say it decodes to (inflating past that is a bomb) and all of them together against
 * `imageLimit`, not against `limit`.
 */
export declare function measurePdfStreams(bytes: Uint8Array, limit: number, signal: AbortSignal, describeLimit: (limit: number, seen: number) => string, imageLimit?: number): Promise<PdfStreamsMeasure>;
//# sourceMappingURL=measure-streams.d.ts.map