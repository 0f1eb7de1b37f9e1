/** One entry of a ZIP's central directory, ZIP64 fields applied. */
export interface ZipEntry {
    readonly name: string;
    /** 0 stored, 8 deflated; Office writes nothing else. */
    readonly method: number;
    readonly compressedSize: number;
    /** What the directory says the entry expands to (not trusted: checked against the data). */
    readonly declaredSize: number;
    readonly localOffset: number;
}
/**
 * The entries of a ZIP's central directory (ZIP64 included: 64-bit sizes and offsets in the
 * entries' extra fields, the ZIP64 end record when there are more than 65,535 entries). Throws a
 * CORRUPT_FILE {@link ParseFailure} when the directory cannot be read.
 */
export declare function zipEntries(bytes: Uint8Array): ZipEntry[];
/** What {@link measureZip} found. */
export interface ZipMeasure {
    readonly entries: number;
    /** Bytes the entries really inflate to (past the limit: what was counted when it stopped). */
    readonly inflatedBytes: number;
}
/**
 * Inflates every entry of a ZIP container to count what it really expands to, never trusting its
 * headers, and stops as soon as the count passes `limit`: a FILE_SIZE_TOO_LARGE
 * {@link ParseFailure} then. A directory whose declared sizes do not match the data (a lying
 * header, ZIP64 or not, which the parsing libraries would trust) is CORRUPT_FILE. Memory stays
 * at one chunk of 1 MiB whatever the container holds.
 */
export declare function measureZip(bytes: Uint8Array, limit: number, signal: AbortSignal, describeLimit: (limit: number, seen: number) => string): Promise<ZipMeasure>;
//# sourceMappingURL=zip-measure.d.ts.map