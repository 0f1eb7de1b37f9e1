/** A PDF object as the content reader needs it: names are strings, strings are opaque. */
export type PdfValue = number | boolean | null | string | PdfValue[] | PdfDict | PdfRef | PdfStream | {
    readonly kind: 'string';
};
/** A dictionary: keys without their slash. */
export type PdfDict = {
    readonly kind: 'dict';
    readonly entries: Map<string, PdfValue>;
};
/** An indirect reference. */
export interface PdfRef {
    readonly kind: 'ref';
    readonly num: number;
    readonly gen: number;
}
/** A stream: its dictionary and its raw (still encoded) bytes. */
export interface PdfStream {
    readonly kind: 'stream';
    readonly dict: PdfDict;
    readonly raw: Uint8Array;
}
/** Bytes that do not parse as a PDF object. */
export declare class MalformedObject extends Error {
    readonly name = "MalformedObject";
}
/**
 * Parses the object at `offset` of `bytes` (a dictionary may be followed by its stream, whose
 * `/Length` may be a reference `resolve` reads). Plain data, built only for the objects looked up:
 * pdf-lib's parser builds a class instance per name and number, and parses every object first.
 */
export declare function parseObjectAt(bytes: Uint8Array, offset: number, resolve?: (ref: PdfRef) => PdfValue | undefined): PdfValue;
/** A dictionary's entry, or `undefined`. */
export declare function entry(dict: PdfValue | undefined, key: string): PdfValue | undefined;
/** True for a dictionary. */
export declare function isDict(value: PdfValue | undefined): value is PdfDict;
/** True for a stream. */
export declare function isStream(value: PdfValue | undefined): value is PdfStream;
/** True for a reference. */
export declare function isRef(value: PdfValue | undefined): value is PdfRef;
//# sourceMappingURL=pdf-object-parser.d.ts.map