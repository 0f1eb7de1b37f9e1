import { unionBoxes } from '../../boxes.js';
import { markdownTable } from '../markdown-table.js';
/** Rows further apart than this many text sizes belong to different tables. */
const MAX_ROW_GAP = 3;
/** A number, an amount, a date or a percentage. */
const VALUE = /^[-+(]?\p{Sc}?\s?\d[\d.,:/\s'-]*[%)]?\s?(?:\p{Sc}|[A-Z]{3})?$/u;
/**
 * Column spans of rows: the pieces' horizontal extents merged where they overlap; each gap left
 * between them separates two columns.
 */
function columnSpans(rows) {
    const extents = rows
        .flatMap((row) => row.cells.map((cell) => ({ left: cell.box.left, right: cell.box.right })))
        .sort((a, b) => a.left - b.left);
    const spans = [];
    for (const extent of extents) {
        const last = spans[spans.length - 1];
        if (last && extent.left <= last.right + 1)
            last.right = Math.max(last.right, extent.right);
        else
            spans.push({ ...extent });
    }
    return spans;
}
function columnOf(spans, cell) {
    const centre = (cell.box.left + cell.box.right) / 2;
    const index = spans.findIndex((span) => centre >= span.left - 1 && centre <= span.right + 1);
    return Math.max(0, index);
}
/** A table from rows of separated pieces: a grid of the pieces by column span. */
function rowTable(rows) {
    const spans = columnSpans(rows);
    const grid = rows.map(() => spans.map(() => []));
    rows.forEach((row, r) => {
        for (const cell of row.cells)
            grid[r]?.[columnOf(spans, cell)]?.push(cell.text);
    });
    const texts = grid.map((row) => row.map((parts) => parts.join(' ')));
    const children = [];
    texts.forEach((row, r) => {
        const line = rows[r];
        row.forEach((text, c) => {
            const span = spans[c];
            children.push({
                type: 'table_cell',
                content: text,
                markdown: '',
                details: { type: 'table_cell_details', rowIndex: r, columnIndex: c },
                ...(line && span
                    ? {
                        boundingBox: {
                            left: span.left,
                            right: span.right,
                            top: line.box.top,
                            bottom: line.box.bottom,
                        },
                    }
                    : {}),
            });
        });
    });
    const markdown = markdownTable(texts);
    const box = unionBoxes(rows.map((row) => row.box));
    return {
        type: 'table',
        content: markdown,
        markdown,
        details: { type: 'table_details', rowCount: rows.length, columnCount: spans.length },
        ...(box ? { boundingBox: box } : {}),
        children,
    };
}
/** A label and its value set apart on one line: `Subtotal      $34,128.71`. */
function keyValue(row) {
    const [key, ...rest] = row.cells;
    const value = rest.map((cell) => cell.text).join(' ');
    return {
        type: 'key_value',
        content: row.text,
        markdown: row.text,
        details: { type: 'key_value_details', key: key?.text ?? '', value },
        boundingBox: row.box,
    };
}
/**
 * Two-piece rows read as a table rather than as labels and values when there are three or more
 * of them under a header: the first row holds no value and most of the others do.
 */
function twoColumnTable(rows) {
    const [header, ...body] = rows;
    if (!header || body.length < 2)
        return false;
    if (header.cells.some((cell) => VALUE.test(cell.text)))
        return false;
    const withValue = body.filter((row) => row.cells.some((cell) => VALUE.test(cell.text))).length;
    return withValue >= body.length / 2;
}
function near(a, b) {
    const size = Math.max(a.size, b.size);
    return b.box.top - a.box.bottom <= size * MAX_ROW_GAP && b.baseline > a.baseline;
}
/**
 * Groups lines in reading order: consecutive rows of separated pieces (a gap of more than
 * 2.5 text sizes inside the line) close to each other form one group; other lines stay alone.
 */
export function groupRows(items, lineOf) {
    const out = [];
    let rows = [];
    const flush = () => {
        if (rows.length > 0)
            out.push({ kind: 'rows', rows });
        rows = [];
    };
    for (const item of items) {
        const line = lineOf(item);
        if (!line || line.cells.length < 2) {
            flush();
            out.push(item);
            continue;
        }
        const last = rows[rows.length - 1];
        if (last && !near(last, line))
            flush();
        rows.push(line);
    }
    flush();
    return out;
}
/**
 * The blocks of a group of rows of separated pieces, aligned in columns: a table from the first
 * to the last row of three or more pieces (two-piece rows before or after it are labels and
 * values: totals under a table are fields, not items), or of two-piece rows under a header;
 * other two-piece rows are key-value blocks (`keyValues`, the interface's blockOptions.keyValue) or
 * text lines, as is a lone row of three or more pieces.
 */
export function rowBlocks(rows, keyValues, line) {
    const single = (row) => keyValues && row.cells.length === 2 ? keyValue(row) : line(row);
    const first = rows.findIndex((row) => row.cells.length >= 3);
    if (first < 0)
        return twoColumnTable(rows) ? [rowTable(rows)] : rows.map(single);
    let last = first;
    rows.forEach((row, i) => {
        if (row.cells.length >= 3)
            last = i;
    });
    const core = rows.slice(first, last + 1);
    return [
        ...rows.slice(0, first).map(single),
        ...(core.length >= 2 ? [rowTable(core)] : core.map(line)),
        ...rows.slice(last + 1).map(single),
    ];
}
//# sourceMappingURL=row-tables.js.map