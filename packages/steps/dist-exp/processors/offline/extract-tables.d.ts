/**
 * Arrays of objects from tables: the table whose columns best fit the item properties (by
 * header, through the synonyms of text-tokens.ts), continued on later pages under the same
 * header. Where headers say too little ("Each", "Sum"), columns are given by what they hold:
 * a row's quantity × unit price = amount picks those three; the wordiest column is the
 * description. Statements with separate debit and credit columns give signed amounts. Total
 * and balance-forward rows are not items; a row holding only more description text continues
 * the row above (a wrapped cell).
 */
import type { SchemaNode } from '../schema-node.ts';
import type { DocumentCell, DocumentTable } from '../view/document-view.ts';
export interface ColumnMap {
    readonly columns: Map<string, number>;
    /** Signed amounts from a debit and a credit column, for the property named. */
    readonly split?: {
        readonly name: string;
        readonly debit: number;
        readonly credit: number;
    };
    readonly score: number;
}
/** Maps item properties to table columns; the mapping and its strength (0 when unusable). */
export declare function mapColumns(items: SchemaNode, table: DocumentTable): ColumnMap;
/** Rows of a table as items: totals and balance-forward rows dropped, wrapped cells joined. */
export declare function itemRows(table: DocumentTable, map: ColumnMap, descriptionColumn: number | undefined): DocumentCell[][];
/** The signed amount of a row from its debit and credit cells. */
export declare function splitAmount(row: readonly DocumentCell[], split: NonNullable<ColumnMap['split']>): {
    value: number;
    cell: DocumentCell;
} | undefined;
/**
 * A quantity written into an item's description, as till receipts do: "2 x Coffee",
 * "Coffee 2 @ 1.50", "Coffee 2 x 1.50". Undefined when the text has none.
 */
export declare function splitQuantity(text: string, leadingCount?: boolean): {
    quantity: number;
    description: string;
} | undefined;
/** A header that names a count before the item ("Qty Item", "Quantity / Description"). */
export declare const COUNT_FIRST: RegExp;
//# sourceMappingURL=extract-tables.d.ts.map