/** The body text size: the size carrying the most characters. */
export function bodySize(sizes) {
    let best = 0;
    let bestSize = 10;
    for (const { size, chars } of sizes) {
        if (chars > best) {
            best = chars;
            bestSize = size;
        }
    }
    return bestSize;
}
/** Text larger than the body by this factor can make a heading. */
const HEADING_RATIO = 1.15;
/**
 * A page's blocks with its heading candidates made headings where the document's sizes say so:
 * a level from the text size, or, for a set-apart bold line, the level below the size-based ones.
 * A heading reads as a markdown heading on one line (list marks are not kept on it).
 */
export function withHeadings(blocks, headings, headingSizes, body) {
    const out = [...blocks];
    for (const { index, size, bold } of headings) {
        const level = headingLevel(size, headingSizes, body) ??
            (bold ? Math.min(6, headingSizes.length + 1) : undefined);
        const block = out[index];
        if (level === undefined || !block)
            continue;
        out[index] = {
            ...block,
            markdown: `${'#'.repeat(level)} ${block.content.replace(/\n/g, ' ')}`,
            headingLevel: level,
        };
    }
    return out;
}
/** Sizes clearly above body text, largest first: they become heading levels 1, 2, 3, … */
export function headingSizesOf(sizes, body) {
    const distinct = new Set();
    for (const { size } of sizes) {
        const rounded = Math.round(size * 2) / 2;
        if (rounded >= body * HEADING_RATIO)
            distinct.add(rounded);
    }
    return [...distinct].sort((a, b) => b - a).slice(0, 6);
}
function headingLevel(size, headingSizes, body) {
    if (size < body * HEADING_RATIO)
        return undefined;
    const rounded = Math.round(size * 2) / 2;
    const index = headingSizes.findIndex((s) => rounded >= s - 0.25);
    return index < 0 ? headingSizes.length || 1 : index + 1;
}
//# sourceMappingURL=headings.js.map