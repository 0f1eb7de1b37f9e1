/** Default {@link ParseLimits}. */
export const DEFAULT_PARSE_LIMITS = {
    maxFileBytes: 100 * 1024 * 1024,
    maxUncompressedBytes: 1024 * 1024 * 1024,
    expansionRatio: 100,
    expansionAllowanceBytes: 16 * 1024 * 1024,
    maxPages: 2000,
    maxCells: 2_000_000,
    timeoutMs: 10 * 60 * 1000,
    workerHeapMb: 2048,
};
/** What a file of `fileBytes` may expand to under `limits` (see {@link ParseLimits.expansionRatio}). */
export function expansionLimit(limits, fileBytes) {
    return Math.min(limits.maxUncompressedBytes, limits.expansionRatio * fileBytes + limits.expansionAllowanceBytes);
}
//# sourceMappingURL=format-context.js.map