export function boxOf(polygon) {
    if (polygon.length === 0)
        return null;
    let left = Number.POSITIVE_INFINITY;
    let top = Number.POSITIVE_INFINITY;
    let right = Number.NEGATIVE_INFINITY;
    let bottom = Number.NEGATIVE_INFINITY;
    for (const p of polygon) {
        left = Math.min(left, p.x);
        top = Math.min(top, p.y);
        right = Math.max(right, p.x);
        bottom = Math.max(bottom, p.y);
    }
    return { left, top, right, bottom };
}
export function rect(left, top, right, bottom) {
    const r = (n) => Math.round(n * 100) / 100;
    return [
        { x: r(left), y: r(top) },
        { x: r(right), y: r(top) },
        { x: r(right), y: r(bottom) },
        { x: r(left), y: r(bottom) },
    ];
}
/** The polygon of characters `from..to` of a line whose polygon spans its whole text. */
export function slicePolygon(polygon, textLength, from, to) {
    const box = boxOf(polygon);
    if (!box || textLength <= 0)
        return polygon;
    const width = box.right - box.left;
    const a = box.left + (width * Math.max(0, from)) / textLength;
    const b = box.left + (width * Math.min(textLength, to)) / textLength;
    return rect(a, box.top, b, box.bottom);
}
/** The polygon of characters `from..to` of a line, through its segments when it has them. */
export function linePolygon(line, from, to) {
    const segment = line.segments?.find((s) => from >= s.start && to <= s.end);
    if (segment)
        return slicePolygon(segment.polygon, segment.end - segment.start, from - segment.start, to - segment.start);
    return slicePolygon(line.polygon, line.text.length, from, to);
}
/** A region of `r` with another polygon (a literal, not a spread: this runs per table cell). */
export function regionOf(r, polygon = r.polygon) {
    return {
        fileId: r.fileId,
        page: r.page,
        pageWidth: r.pageWidth,
        pageHeight: r.pageHeight,
        polygon,
        ocrConfidence: r.ocrConfidence,
    };
}
//# sourceMappingURL=view-geometry.js.map