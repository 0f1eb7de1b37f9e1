import type { CellFormatting } from '../parse-output.ts';
/**
 * A streaming XLSX reader: the workbook's parts found through their relationships, shared
 * strings and styles read whole, each sheet's XML inflated and tokenised (htmlparser2 in XML
 * mode) as it streams, its rows handed over as they close. Nothing of a sheet is held but the
 * row being read. Decision 0027 says why docflow reads XLSX itself.
 */
/** What every cell of one `cellXfs` entry shares: its number format and formatting. */
export interface XlsxStyle {
    /** The number format's code, `undefined` for General. */
    readonly numFmt: string | undefined;
    /** The number format shows dates or times. */
    readonly date: boolean;
    /** Bold, italic, font colour, fill; `undefined` when none. One frozen object per distinct one. */
    readonly formatting: CellFormatting | undefined;
}
/** A cell's value as stored: a constant, or a formula's cached result. */
export type XlsxValue = string | number | boolean | {
    readonly error: string;
} | null;
export interface XlsxCell {
    /** 1-based. */
    readonly column: number;
    /** `null` for an empty cell, or a formula without a cached result. */
    readonly value: XlsxValue;
    /** The formula without `=`, shared formulas moved to this cell. */
    readonly formula: string | undefined;
    readonly style: XlsxStyle;
}
export interface XlsxRow {
    /** 1-based. */
    readonly number: number;
    readonly hidden: boolean;
    readonly cells: readonly XlsxCell[];
}
export interface XlsxSheet {
    readonly name: string;
    readonly hidden: boolean;
    /** Filled as the sheet streams: its `<cols>` come before its rows. */
    readonly hiddenColumns: ReadonlySet<number>;
    rows(): AsyncIterable<XlsxRow>;
}
/** 1 → `A`, 28 → `AB`. */
export declare function columnLetters(column: number): string;
/**
 * A shared formula as it reads in a cell `rows` and `columns` away from the cell that holds its
 * text: relative references move, `$` parts and string literals do not (as Excel copies it).
 */
export declare function moveFormula(formula: string, rows: number, columns: number): string;
/**
 * The sheets of an XLSX workbook in their order, each read when its turn comes. Throws on a
 * container or part that cannot be read (the caller reports CORRUPT_FILE).
 */
export declare function readWorkbook(bytes: Uint8Array): XlsxSheet[];
//# sourceMappingURL=xlsx-reader.d.ts.map