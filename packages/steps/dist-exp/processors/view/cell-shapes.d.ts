/** True when a cell's text has the shape of a label ("Invoice No.", "Due date:", "VAT 20%"). */
export declare function isLabelCell(text: string): boolean;
/** True for a cell of digits, amounts or codes rather than words. */
export declare function numeric(text: string): boolean;
//# sourceMappingURL=cell-shapes.d.ts.map