/**
 * Tables of a view: from a table block's cells, from markdown table text, and inferred from
 * consecutive lines whose cells line up (equal cell counts, or columns found in the whitespace
 * between words when a layout parser merged or split cells).
 */
import type { Block } from '../../parse/parse-output.ts';
import type { DocumentLine, DocumentRegion, DocumentTable } from './document-view.ts';
/** Splits a line into cells: on `|`, tabs, or runs of two or more spaces. */
export declare function splitCells(text: string): {
    text: string;
    start: number;
    end: number;
}[];
/** Column repairs for what layouts do to narrow columns: joined, or a date cut in two. */
export declare function repairColumns(table: DocumentTable): DocumentTable;
/**
 * A table block that holds several tables one under another (a layout parser's grouping of
 * aligned rows): it is cut before each row of labels that follows a row of values, so that the
 * document's header grid, its party blocks and its items come apart.
 */
export declare function splitAtHeaders(table: DocumentTable): DocumentTable[];
/** Finds tables in consecutive lines: a header of ≥ 2 cells followed by rows of as many cells. */
export declare function tablesFromLines(lines: readonly DocumentLine[], fileId: string | undefined): DocumentTable[];
/** A table built from a table block's cell children. */
export declare function tableFromCells(cells: readonly Block[], region: Omit<DocumentRegion, 'polygon' | 'ocrConfidence'>): DocumentTable | null;
/** A table from markdown table content (`| a | b |` lines) when the block has no cell children. */
export declare function tableFromMarkdown(content: string, base: DocumentRegion): DocumentTable | null;
//# sourceMappingURL=table-inference.d.ts.map