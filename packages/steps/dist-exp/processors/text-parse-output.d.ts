import type { ParseRunOutput } from '../parse/parse-output.ts';
/**
 * Builds the parse output of text pages. Pages are separated by form feeds (`\f`) when `text`
 * is one string.
 *
 * @example
 * const output = textToParseOutput(['INVOICE\nInvoice number: INV-1', 'Page 2']);
 */
export declare function textToParseOutput(text: string | readonly string[]): ParseRunOutput;
//# sourceMappingURL=text-parse-output.d.ts.map