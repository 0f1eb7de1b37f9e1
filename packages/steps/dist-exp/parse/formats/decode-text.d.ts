/**
 * Decodes text bytes: a UTF-8/UTF-16 BOM wins, then strict UTF-8, then Windows-1252 (the usual
 * encoding of "ANSI" exports, and a superset of Latin-1).
 */
export declare function decodeText(bytes: Uint8Array): string;
/** Normalises line endings to `\n`. */
export declare function normaliseNewlines(text: string): string;
//# sourceMappingURL=decode-text.d.ts.map