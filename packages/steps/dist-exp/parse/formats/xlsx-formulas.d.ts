/** A cell value as formulas read it: Excel's scalar types (dates as serial numbers). */
export type CellScalar = number | string | boolean | FormulaErrorValue | null;
/** An Excel error value (`#DIV/0!`, `#N/A`, …). */
export interface FormulaErrorValue {
    readonly error: string;
}
/** A formula cell without a cached value, to be calculated. */
export interface PendingFormula {
    /** The sheet's position among the workbook's sheets. */
    readonly sheet: number;
    /** 1-based. */
    readonly row: number;
    readonly column: number;
    /** The formula without its leading `=`. */
    readonly formula: string;
}
/** What calculating a formula gave: a value, or why there is none. */
export type Calculated = {
    readonly ok: true;
    readonly value: CellScalar;
} | {
    readonly ok: false;
    readonly reason: string;
};
/** The cells of one sheet: values by position, formulas still to calculate, the used extent. */
export interface SheetValues {
    readonly name: string;
    readonly values: Map<number, CellScalar>;
    readonly pending: Map<number, PendingFormula>;
    maxRow: number;
    maxColumn: number;
}
/** The key of a cell in {@link SheetValues} maps. */
export declare function cellKey(row: number, column: number): number;
/**
 * Calculates the pending formulas of a workbook with fast-formula-parser (Excel's grammar and
 * semantics: empty cells read as 0 or "", errors such as `#DIV/0!` are values, ranges and
 * references to other sheets). A formula reading another pending formula calculates it first;
 * a circular reference, an unknown function or a formula the parser cannot read leaves the
 * cell without a value and gives the reason. Ranges are clipped to each sheet's used extent.
 */
export declare function calculateFormulas(sheets: readonly SheetValues[], signal: AbortSignal): Map<PendingFormula, Calculated>;
//# sourceMappingURL=xlsx-formulas.d.ts.map