/**
 * Page and sheet selection of processor configs: `pageRanges` (1-based, inclusive, `end`
 * defaulting to 750 as in the interface) and `excelSheetRanges` (0-based sheet indexes).
 */
const DEFAULT_RANGE_END = 750;
/** The view limited to `ranges` (no ranges: the whole view). */
export function selectPageRanges(view, ranges) {
    if (!ranges || ranges.length === 0)
        return view;
    const inRange = (n) => ranges.some((r) => n >= r.start && n <= (r.end ?? DEFAULT_RANGE_END));
    return { ...view, pages: view.pages.filter((p) => inRange(p.number)) };
}
/** The view limited to sheets in `ranges`; pages without a sheet are kept. */
export function selectSheetRanges(view, ranges) {
    if (!ranges || ranges.length === 0)
        return view;
    const inRange = (i) => ranges.some((r) => i >= r.start && i <= r.end);
    return {
        ...view,
        pages: view.pages.filter((p) => p.sheetIndex === undefined || inRange(p.sheetIndex)),
    };
}
/** The pages `start..end` of a view (one file's numbering), renumbered from 1 as `fileId`. */
export function slicePages(view, start, end, fileId) {
    const pages = view.pages
        .filter((p) => p.number >= start && p.number <= end)
        .map((p) => {
        const number = p.number - start + 1;
        const relocate = (r) => ({
            ...r,
            page: number,
            ...(fileId === undefined ? {} : { fileId }),
        });
        return {
            ...p,
            number,
            ...(fileId === undefined ? {} : { fileId }),
            lines: p.lines.map(relocate),
            fields: p.fields.map((f) => ({ ...f, region: relocate(f.region) })),
            tables: p.tables.map((t) => ({
                ...relocate(t),
                header: t.header.map((c) => ({ ...c, region: relocate(c.region) })),
                rows: t.rows.map((row) => row.map((c) => ({ ...c, region: relocate(c.region) }))),
            })),
        };
    });
    return { pages, fileIds: fileId === undefined ? view.fileIds : [fileId] };
}
//# sourceMappingURL=page-selection.js.map