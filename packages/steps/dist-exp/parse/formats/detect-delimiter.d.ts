/** The delimiters CSV parsing considers. */
export declare const CSV_DELIMITERS: readonly [',', ';', '\t', '|'];
/**
 * Picks the delimiter whose per-line count (outside quotes) is the most consistent over the
 * first lines, preferring more columns on a tie. Papaparse's own guess picks `,` for a
 * two-column tab file, so we score the candidates ourselves.
 */
export declare function detectDelimiter(text: string, sampleLines?: number): string;
//# sourceMappingURL=detect-delimiter.d.ts.map