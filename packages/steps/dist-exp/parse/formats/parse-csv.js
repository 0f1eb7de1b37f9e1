import Papa from 'papaparse';
import { ParseFailure } from '../parse-failure.js';
import { decodeText } from './decode-text.js';
import { detectDelimiter } from './detect-delimiter.js';
import { markdownTable } from './markdown-table.js';
/**
 * CSV/TSV: our delimiter detection (comma, semicolon, tab, pipe), papaparse for quoting; one
 * table block whose first row is the header, with a table_cell block per cell.
 */
export async function parseCsv(bytes, context) {
    const text = decodeText(bytes);
    const delimiter = detectDelimiter(text);
    const parsed = Papa.parse(text, { delimiter, skipEmptyLines: 'greedy' });
    const rows = parsed.data;
    const columnCount = rows.reduce((max, row) => Math.max(max, row.length), 0);
    if (rows.length * columnCount > context.limits.maxCells) {
        throw new ParseFailure('FILE_SIZE_TOO_LARGE', `The CSV has ${rows.length} rows × ${columnCount} columns, above limits.maxCells (${context.limits.maxCells}). Split the file or raise the limit.`);
    }
    context.signal.throwIfAborted();
    const children = [];
    rows.forEach((row, r) => {
        for (let c = 0; c < columnCount; c++) {
            children.push({
                type: 'table_cell',
                content: row[c] ?? '',
                markdown: '',
                details: { type: 'table_cell_details', rowIndex: r, columnIndex: c },
            });
        }
    });
    const markdown = markdownTable(rows);
    const blocks = rows.length === 0
        ? []
        : [
            {
                type: 'table',
                content: markdown,
                markdown,
                details: { type: 'table_details', rowCount: rows.length, columnCount },
                children,
            },
        ];
    return { units: [{ pageNumber: 1, blocks }], pages: null, pageCount: 1 };
}
//# sourceMappingURL=parse-csv.js.map