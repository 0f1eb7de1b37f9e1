/**
 * Plain text as a {@link ParseRunOutput}: one `page` chunk per page, one `text` block per
 * non-empty line, laid out as a monospaced US-letter page (10 pt Courier: 6 pt per character,
 * 12 pt per line, 1 inch margins) so that citations have page geometry to point at.
 */
import { createHash } from 'node:crypto';
const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 72;
const CHAR_WIDTH = 6;
const LINE_HEIGHT = 12;
/**
 * Builds the parse output of text pages. Pages are separated by form feeds (`\f`) when `text`
 * is one string.
 *
 * @example
 * const output = textToParseOutput(['INVOICE\nInvoice number: INV-1', 'Page 2']);
 */
export function textToParseOutput(text) {
    const pages = typeof text === 'string' ? text.split('\f') : text;
    const chunks = pages.map((pageText, p) => {
        const number = p + 1;
        const blocks = [];
        pageText.split(/\r?\n/).forEach((line, row) => {
            if (line.trim() === '')
                return;
            const indent = line.length - line.trimStart().length;
            const content = line.trim();
            const left = MARGIN + indent * CHAR_WIDTH;
            const top = MARGIN + row * LINE_HEIGHT;
            const right = left + content.length * CHAR_WIDTH;
            const bottom = top + LINE_HEIGHT;
            const id = createHash('sha1')
                .update(`${number}:${row}:${content}`)
                .digest('hex')
                .slice(0, 16);
            blocks.push({
                object: 'block',
                id,
                parentBlockId: null,
                type: 'text',
                content,
                details: { type: 'text_details' },
                metadata: {
                    page: { number, width: PAGE_WIDTH, height: PAGE_HEIGHT },
                    minOcrConfidence: null,
                    avgOcrConfidence: null,
                },
                polygon: [
                    { x: left, y: top },
                    { x: right, y: top },
                    { x: right, y: bottom },
                    { x: left, y: bottom },
                ],
                boundingBox: { left, top, right, bottom },
            });
        });
        return {
            object: 'chunk',
            type: 'page',
            content: pageText,
            metadata: {
                pageRange: { start: number, end: number },
                minOcrConfidence: null,
                avgOcrConfidence: null,
            },
            blocks,
        };
    });
    return {
        chunks,
        metadata: {
            originalMimeType: 'text/plain',
            finalMimeType: 'text/plain',
            pages: chunks.map((_, p) => ({
                number: p + 1,
                rotationApplied: 0,
                originalPageWidth: PAGE_WIDTH,
                originalPageHeight: PAGE_HEIGHT,
                dpi: 72,
            })),
        },
    };
}
//# sourceMappingURL=text-parse-output.js.map