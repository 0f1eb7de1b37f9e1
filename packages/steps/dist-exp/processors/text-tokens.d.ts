/**
 * Word-level text normalisation shared by the offline classifier, splitter and extractor:
 * lower-cased tokens, a light stemmer and a small table of business-document synonyms so that
 * "Qty", "Invoice #" and "Bill to" meet "quantity", "invoice_number" and "customer".
 */
/** A light suffix stemmer: enough to meet "items"/"item" and "charges"/"charge". */
export declare function stem(word: string): string;
/**
 * Canonical tokens of `text`: lower-cased, phrase and token synonyms applied, stemmed, stop
 * words dropped. `#` is kept as a token because "Invoice #" means "invoice number".
 */
export declare function tokens(text: string, options?: {
    keepStopWords?: boolean;
}): string[];
/** Tokens of a label, with numbers and pure punctuation removed. */
export declare function labelTokens(text: string): string[];
/**
 * Dice similarity of two token lists treated as sets, 0..1, with generic tokens ("number",
 * "date", "name") counting half, so that "Invoice No." does not pass for a PO number.
 */
export declare function dice(a: readonly string[], b: readonly string[]): number;
//# sourceMappingURL=text-tokens.d.ts.map