import { type PdfRef, type PdfStream, type PdfValue } from './pdf-object-parser.ts';
/** Objects of a document, parsed when first looked up. */
export interface LazyObjects {
    /** The object a reference points to (`undefined`: none); throws on malformed data. */
    lookup(ref: PdfRef): PdfValue | undefined;
    /** The document has an /Encrypt dictionary (its streams are encrypted). */
    readonly encrypted: boolean;
}
/**
 * Reads a PDF's cross-reference sections (tables, streams, hybrids, /Prev chains) and parses
 * each object only when it is looked up, instead of parsing the whole file first; where the
 * cross-reference data is unreadable, objects are found by scanning the file for `n g obj`.
 * `undefined` when neither works.
 */
export declare function lazyObjects(bytes: Uint8Array): LazyObjects | undefined;
/**
 * A stream's decoded data: no filter, or FlateDecode (with or without a PNG predictor).
 * `undefined` for other filters and for data zlib rejects: pdf.js then reads that page itself.
 */
export declare function decodeStream(stream: PdfStream): Uint8Array | undefined;
//# sourceMappingURL=lazy-objects.d.ts.map