import { plain } from './block-text.js';
import { relinePage } from './reline-page.js';
const collapse = (text) => text.replace(/\s+/g, ' ').trim().toLowerCase();
/** The lines of a chunk's blocks, relined from their geometry, for matching layout text to. */
export function blockLines(blocks) {
    const raw = blocks
        .filter((b) => b.type === 'text' && b.polygon.length > 0)
        .map((b, index) => ({
        text: plain(b.content),
        polygon: b.polygon,
        ocrConfidence: b.metadata.avgOcrConfidence ?? null,
        index,
    }));
    return relinePage(raw, (base, text, polygon) => ({ ...base, text, polygon })).map((l) => ({
        key: collapse(l.text),
        words: new Set(collapse(l.text).split(' ')),
        polygon: l.polygon,
        ocrConfidence: l.ocrConfidence,
    }));
}
/** The geometry line with the same words as `text` (exactly, else the largest overlap). */
export function bestGeometry(text, lines) {
    if (lines.length === 0)
        return undefined;
    const key = collapse(text);
    const exact = lines.find((l) => l.key === key);
    if (exact)
        return exact;
    const words = key.split(' ');
    let best;
    let score = 0;
    for (const line of lines) {
        let common = 0;
        for (const w of words)
            if (line.words.has(w))
                common++;
        const s = common / Math.max(words.length, line.words.size);
        if (s > score)
            [best, score] = [line, s];
    }
    return score >= 0.5 ? best : undefined;
}
/** True for the layout-preserving text of the `spatial` target (column gaps, kept indentation). */
export function isLayoutText(content) {
    const lines = content.split('\n').filter((l) => l.trim() !== '');
    if (lines.length < 3)
        return false;
    const gapped = lines.filter((l) => /\S {3,}\S/.test(l)).length;
    const indented = lines.filter((l) => /^ {4,}\S/.test(l)).length;
    return gapped >= 2 || indented >= lines.length * 0.6;
}
//# sourceMappingURL=layout-text.js.map