import type { DraftDocument } from '../draft-document.ts';
import type { FormatContext } from '../format-context.ts';
/**
 * XLSX (EXCEL), read as it streams (xlsx-reader.ts): one unit (and chunk) per sheet, one table per sheet whose cells
 * are table_cell blocks; displayed values honour number formats unless excelUseRawCellValues;
 * A1 references and formulas with excelIncludeCellMetadata, formatting with
 * excelIncludeCellFormatting; hidden sheets, rows and columns skipped with excelSkipHiddenContent.
 */
export declare function parseXlsx(bytes: Uint8Array, context: FormatContext): Promise<DraftDocument>;
//# sourceMappingURL=parse-xlsx.d.ts.map