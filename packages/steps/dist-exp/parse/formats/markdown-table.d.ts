/**
 * One line of a markdown table, padded with empty cells to `width`: lets a caller write a large
 * table a row at a time instead of holding every row's cells first.
 */
export declare function markdownTableRow(row: readonly string[], width: number): string;
/** The line under a markdown table's header row. */
export declare function markdownTableSeparator(width: number): string;
/** A GitHub-flavoured markdown table; the first row is the header. Linear in the cell count. */
export declare function markdownTable(rows: readonly (readonly string[])[]): string;
//# sourceMappingURL=markdown-table.d.ts.map