function escapeCell(text) {
    return text
        .replace(/\|/g, '\\|')
        .replace(/\s*\n\s*/g, ' ')
        .trim();
}
/**
 * One line of a markdown table, padded with empty cells to `width`: lets a caller write a large
 * table a row at a time instead of holding every row's cells first.
 */
export function markdownTableRow(row, width) {
    const cells = [];
    for (let i = 0; i < width; i++)
        cells.push(escapeCell(row[i] ?? ''));
    return `| ${cells.join(' | ')} |`;
}
/** The line under a markdown table's header row. */
export function markdownTableSeparator(width) {
    return `|${' --- |'.repeat(width)}`;
}
/** A GitHub-flavoured markdown table; the first row is the header. Linear in the cell count. */
export function markdownTable(rows) {
    const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
    if (rows.length === 0 || width === 0)
        return '';
    const out = [markdownTableRow(rows[0] ?? [], width), markdownTableSeparator(width)];
    for (let r = 1; r < rows.length; r++)
        out.push(markdownTableRow(rows[r] ?? [], width));
    return out.join('\n');
}
//# sourceMappingURL=markdown-table.js.map