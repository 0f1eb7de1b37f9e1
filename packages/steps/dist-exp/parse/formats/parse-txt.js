import { decodeText, normaliseNewlines } from './decode-text.js';
/** Characters that markdown would read as syntax at the start of a line. */
function escapeLineStart(line) {
    return line.replace(/^(\s*)([#>*+-]|\d+[.)])(\s)/, '$1\\$2$3');
}
/**
 * Plain text: one `text` block per paragraph (separated by blank lines), no geometry, one unit.
 * The spatial target keeps the text exactly as written.
 */
export function parseTxt(bytes) {
    const text = normaliseNewlines(decodeText(bytes));
    const blocks = [];
    for (const paragraph of text.split(/\n[ \t]*\n+/)) {
        const content = paragraph.replace(/^\n+|\s+$/g, '');
        if (content.trim() === '')
            continue;
        blocks.push({
            type: 'text',
            content,
            markdown: content.split('\n').map(escapeLineStart).join('\n'),
            details: { type: 'text_details' },
        });
    }
    return {
        units: [{ pageNumber: 1, blocks, spatial: text }],
        pages: null,
        pageCount: 1,
    };
}
//# sourceMappingURL=parse-txt.js.map