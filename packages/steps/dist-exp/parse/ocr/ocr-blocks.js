/** OCR paragraphs (pixels) as text blocks in points, with confidences and word boxes. */
export function ocrBlocks(paragraphs, pointsPerPixel, offset = { x: 0, y: 0 }) {
    const r = (value) => Math.round(value * 100) / 100;
    const scale = (b) => ({
        left: r(offset.x + b.x0 * pointsPerPixel),
        top: r(offset.y + b.y0 * pointsPerPixel),
        right: r(offset.x + b.x1 * pointsPerPixel),
        bottom: r(offset.y + b.y1 * pointsPerPixel),
    });
    const blocks = [];
    const lines = [];
    for (const paragraph of paragraphs) {
        const words = paragraph.lines.flat();
        if (words.length === 0)
            continue;
        const content = paragraph.lines
            .map((line) => line.map((word) => word.text).join(' '))
            .join('\n');
        const confidences = words.map((word) => Math.max(0, Math.min(1, word.confidence / 100)));
        const min = Math.min(...confidences);
        const avg = confidences.reduce((sum, c) => sum + c, 0) / confidences.length;
        for (const line of paragraph.lines) {
            const first = line[0];
            const last = line[line.length - 1];
            if (!first || !last)
                continue;
            const top = Math.min(...line.map((w) => w.bbox.y0));
            const bottom = Math.max(...line.map((w) => w.bbox.y1));
            lines.push({
                text: line.map((w) => w.text).join(' '),
                box: scale({ x0: first.bbox.x0, y0: top, x1: last.bbox.x1, y1: bottom }),
            });
        }
        blocks.push({
            type: 'text',
            content,
            markdown: content.replace(/\n/g, ' '),
            details: { type: 'text_details' },
            boundingBox: scale(paragraph.bbox),
            ocr: { min, avg },
            words: words.map((word) => ({
                text: word.text,
                confidence: Math.round(Math.max(0, Math.min(1, word.confidence / 100)) * 10_000) / 10_000,
                boundingBox: scale(word.bbox),
            })),
        });
    }
    return { blocks, lines };
}
//# sourceMappingURL=ocr-blocks.js.map