/**
 * Label/value detection on a page's lines, wherever a layout puts the value:
 * - on the label's line after a colon ("Invoice #: 1", cut before inner labels a layout parser
 *   joined onto one line: "Invoice #: 1 Date: 2");
 * - in the next cell of the same row ("Invoice Number    INV-1", a right-aligned column, a
 *   letterhead line that also carries a label and its value);
 * - under the label ("Bill to" over the customer's name; a row of labels over a row of values).
 * A row made only of label-like cells, over a row whose cells line up with them, is a header: its
 * labels take the values below, not their neighbours.
 */
import type { DocumentField, DocumentLine, DocumentTable } from './document-view.ts';
/**
 * A label and an amount in one cell, set apart by a single space ("Opening Balance USD 3,472.51"):
 * the label must read as one, the amount have cents or a currency.
 */
export declare function labelledAmount(text: string): {
    label: string;
    value: string;
    at: number;
} | undefined;
/**
 * The fields of a page's lines, and the lines that are a row of labels over a row of values
 * (`headers`, by index).
 */
export declare function lineFields(lines: readonly DocumentLine[]): {
    fields: DocumentField[];
    headers: ReadonlySet<number>;
};
/**
 * The fields a table block holds: a two-column grid of labels and values, or a row of labels
 * over a single row of values.
 */
export declare function tableFields(table: DocumentTable): DocumentField[];
//# sourceMappingURL=label-values.d.ts.map