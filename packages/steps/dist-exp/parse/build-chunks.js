import { boxPolygon, round2 } from './boxes.js';
/**
 * The polygon of every block without geometry, shared and frozen: a sheet's 600,000 cells would
 * otherwise hold 600,000 empty arrays (about 19 MB).
 */
const NO_POLYGON = Object.freeze([]);
function roundBox(box) {
    return {
        left: round2(box.left),
        top: round2(box.top),
        right: round2(box.right),
        bottom: round2(box.bottom),
    };
}
function confidence(blocks) {
    let min = Number.POSITIVE_INFINITY;
    let sum = 0;
    let count = 0;
    for (const block of blocks) {
        const avg = block.metadata.avgOcrConfidence;
        const low = block.metadata.minOcrConfidence;
        if (typeof avg !== 'number' || typeof low !== 'number')
            continue;
        min = Math.min(min, low);
        sum += avg;
        count++;
    }
    return count === 0 ? { min: null, avg: null } : { min, avg: sum / count };
}
/**
 * Turns a parser's draft into the interface chunks for the configured strategy and target, assigning
 * block ids in reading order (`blk_1`, `blk_2`, …; a table's cells follow the table).
 */
export function buildChunks(draft, config) {
    let nextId = 1;
    // Appends into `out`: a spread of a table's cells (600,000 for a large sheet) overflows the stack.
    const toBlocks = (out, unit, draftBlock, parentId) => {
        const id = `blk_${nextId++}`;
        const metadata = draftBlock.ocr || draftBlock.words
            ? {
                ...(unit.page ? { page: unit.page } : {}),
                ...(unit.sheet ? { sheet: unit.sheet } : {}),
                minOcrConfidence: draftBlock.ocr ? round4(draftBlock.ocr.min) : null,
                avgOcrConfidence: draftBlock.ocr ? round4(draftBlock.ocr.avg) : null,
                ...(draftBlock.words && config.returnOcrWords ? { ocrWords: draftBlock.words } : {}),
            }
            : plainMetadata(unit);
        const box = draftBlock.boundingBox ? roundBox(draftBlock.boundingBox) : null;
        const block = {
            object: 'block',
            id,
            parentBlockId: parentId,
            type: draftBlock.type,
            content: draftBlock.content,
            details: draftBlock.details,
            metadata,
            polygon: draftBlock.polygon
                ? draftBlock.polygon.map((p) => ({ x: round2(p.x), y: round2(p.y) }))
                : box
                    ? boxPolygon(box)
                    : NO_POLYGON,
            boundingBox: box,
        };
        out.push(block);
        // No `?? []`: that would allocate an empty array for each of a sheet's 600,000 cells.
        if (draftBlock.children)
            for (const child of draftBlock.children)
                toBlocks(out, unit, child, id);
        if (draftBlock.cells) {
            // The blocks `children` would give for cells without geometry or OCR, field for field.
            const { contents, details } = draftBlock.cells;
            const cellMetadata = plainMetadata(unit);
            details.forEach((cellDetails, index) => {
                out.push({
                    object: 'block',
                    id: `blk_${nextId++}`,
                    parentBlockId: id,
                    type: 'table_cell',
                    content: contents[index] ?? '',
                    details: cellDetails,
                    metadata: cellMetadata,
                    polygon: NO_POLYGON,
                    boundingBox: null,
                });
            });
        }
    };
    // Blocks without OCR share one (immutable) metadata object per unit: a sheet's 600,000 cells
    // would otherwise allocate 600,000 identical objects.
    const shared = new Map();
    const plainMetadata = (unit) => {
        let metadata = shared.get(unit);
        if (!metadata) {
            metadata = {
                ...(unit.page ? { page: unit.page } : {}),
                ...(unit.sheet ? { sheet: unit.sheet } : {}),
                minOcrConfidence: null,
                avgOcrConfidence: null,
            };
            shared.set(unit, metadata);
        }
        return metadata;
    };
    const strategy = config.chunking;
    const sections = [];
    let current;
    const open = (unit) => {
        current = {
            first: unit.pageNumber,
            last: unit.pageNumber,
            sheet: unit.sheet,
            blocks: [],
            markdown: [],
        };
        sections.push(current);
        return current;
    };
    for (const unit of draft.units) {
        // Sheets are chunks of their own except in `document` chunking (the interface: one chunk per sheet).
        if (strategy === 'page' || (unit.sheet && strategy !== 'document') || !current)
            open(unit);
        for (const draftBlock of unit.blocks) {
            if (strategy === 'section' && draftBlock.headingLevel !== undefined) {
                const section = current;
                if (section && section.blocks.length > 0)
                    open(unit);
            }
            const section = current ?? open(unit);
            section.last = Math.max(section.last, unit.pageNumber);
            toBlocks(section.blocks, unit, draftBlock, null);
            if (draftBlock.markdown !== '')
                section.markdown.push(draftBlock.markdown);
        }
        const section = current ?? open(unit);
        section.last = Math.max(section.last, unit.pageNumber);
        if (config.target === 'spatial') {
            // Spatial implies page chunking: the section is this unit.
            section.markdown = [unit.spatial ?? unit.blocks.map((block) => block.content).join('\n')];
        }
    }
    return sections.map((section) => {
        const ocr = confidence(section.blocks);
        return {
            object: 'chunk',
            type: strategy,
            content: section.markdown.join('\n\n'),
            metadata: {
                pageRange: { start: section.first, end: section.last },
                minOcrConfidence: ocr.min === null ? null : round4(ocr.min),
                avgOcrConfidence: ocr.avg === null ? null : round4(ocr.avg),
                ...(section.sheet ? { sheet: section.sheet } : {}),
            },
            blocks: section.blocks,
        };
    });
}
function round4(value) {
    return Math.round(value * 10_000) / 10_000;
}
//# sourceMappingURL=build-chunks.js.map