import type { DraftDocument } from '../draft-document.ts';
import type { FormatContext } from '../format-context.ts';
/**
 * CSV/TSV: our delimiter detection (comma, semicolon, tab, pipe), papaparse for quoting; one
 * table block whose first row is the header, with a table_cell block per cell.
 */
export declare function parseCsv(bytes: Uint8Array, context: FormatContext): Promise<DraftDocument>;
//# sourceMappingURL=parse-csv.d.ts.map