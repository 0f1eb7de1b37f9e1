import type { DraftBlock } from '../../draft-document.ts';
import type { TextLine } from './text-lines.ts';
/** A run of rows of separated pieces. */
export interface RowGroup {
    readonly kind: 'rows';
    readonly rows: readonly TextLine[];
}
/**
 * Groups lines in reading order: consecutive rows of separated pieces (a gap of more than
 * 2.5 text sizes inside the line) close to each other form one group; other lines stay alone.
 */
export declare function groupRows<T>(items: readonly T[], lineOf: (item: T) => TextLine | undefined): (T | RowGroup)[];
/**
 * The blocks of a group of rows of separated pieces, aligned in columns: a table from the first
 * to the last row of three or more pieces (two-piece rows before or after it are labels and
 * values: totals under a table are fields, not items), or of two-piece rows under a header;
 * other two-piece rows are key-value blocks (`keyValues`, the interface's blockOptions.keyValue) or
 * text lines, as is a lone row of three or more pieces.
 */
export declare function rowBlocks(rows: readonly TextLine[], keyValues: boolean, line: (row: TextLine) => DraftBlock): DraftBlock[];
//# sourceMappingURL=row-tables.d.ts.map