import { clampBox, round2 } from '../boxes.js';
import { mapLimit } from '../map-limit.js';
import { checkOcrPackages } from '../ocr/ocr-packages.js';
import { ParseFailure } from '../parse-failure.js';
import { inPageRanges } from '../resolve-parse-config.js';
import { bodySize, headingSizesOf, withHeadings } from './pdf/headings.js';
import { spareCore } from './pdf/pdf-worker-pool.js';
import { PDF_WORKER_THRESHOLD, readPages } from './pdf/read-pages.js';
import { hasFormFields, openPdf, pdfError } from './pdf/scan-page.js';
function selectPages(count, context) {
    const pages = [];
    for (let n = 1; n <= count; n++) {
        if (inPageRanges(n, context.config.pageRanges))
            pages.push(n);
    }
    return pages;
}
/**
 * Born-digital and scanned PDF through pdf.js: text runs placed in the upright frame (`/Rotate`
 * and turned text), ruled tables from the page content stream (pdf.js's operator list where
 * that reader steps aside), reading order by XY-cut, headings by font size, AcroForm fields as
 * key_value blocks; pages without a text layer are rendered and OCRed. Large documents are read
 * by pooled worker threads.
 */
export async function parsePdf(bytes, context) {
    const task = await openPdf(bytes);
    const onAbort = () => void task.destroy();
    context.signal.addEventListener('abort', onAbort, { once: true });
    try {
        let doc;
        try {
            doc = await task.promise;
        }
        catch (error) {
            context.signal.throwIfAborted();
            throw pdfError(error);
        }
        if (doc.numPages === 0) {
            throw new ParseFailure('CORRUPT_FILE', 'The PDF has no pages. Re-export it from the source application.');
        }
        const selected = selectPages(doc.numPages, context);
        if (selected.length === 0) {
            throw new ParseFailure('INVALID_CONFIG_OPTIONS', `advancedOptions.pageRanges selects no page of this ${doc.numPages}-page PDF.`);
        }
        if (selected.length > context.limits.maxPages) {
            throw new ParseFailure('FILE_SIZE_TOO_LARGE', `The selection has ${selected.length} pages; the limit is ${context.limits.maxPages}. Narrow advancedOptions.pageRanges or raise limits.maxPages.`);
        }
        context.progress?.start(selected.length);
        const hasForm = context.config.keyValue && (await hasFormFields(doc));
        // Worker threads where a core is idle to run them, unless the caller decided (decision 0012).
        const workers = context.pdfWorkers === 'always' || (context.pdfWorkers === 'auto' && spareCore());
        const threshold = workers ? PDF_WORKER_THRESHOLD : Number.POSITIVE_INFINITY;
        const { pages: laidPages } = await readPages(bytes, doc, selected, context, hasForm, threshold);
        const sizes = new Map();
        for (const page of laidPages) {
            for (const [size, chars] of page.sizes)
                sizes.set(size, (sizes.get(size) ?? 0) + chars);
        }
        const sizeList = [...sizes].map(([size, chars]) => ({ size, chars }));
        const body = bodySize(sizeList);
        const headingSizes = headingSizesOf(sizeList, body);
        // Scanned pages are rendered and OCRed concurrently, as many as the OCR pool has workers.
        const scanned = laidPages.filter((page) => page.scanned);
        const ocrResults = new Map();
        if (scanned.length > 0) {
            checkOcrPackages(context, 'pdf');
            const [{ ocrPdfPage }, { ocrPoolSize }] = await Promise.all([
                import('./pdf/ocr-pdf-page.js'),
                import('../ocr/ocr-pool.js'),
            ]);
            await mapLimit(scanned, ocrPoolSize(), async (page) => {
                const result = await ocrPdfPage(doc, page.number, context, {
                    width: page.originalWidth,
                    height: page.originalHeight,
                });
                ocrResults.set(page.number, result);
                context.progress?.pageDone();
            });
        }
        const units = [];
        const pages = [];
        let ocrPageCount = 0;
        for (const laid of laidPages) {
            let blocks;
            let spatial;
            let width = laid.width;
            let height = laid.height;
            let rotation = laid.rotation;
            const ocr = ocrResults.get(laid.number);
            if (ocr) {
                blocks = ocr.blocks;
                spatial = ocr.spatial;
                width = ocr.width;
                height = ocr.height;
                // What OSD found on the page rendered as a viewer shows it (its /Rotate applied).
                rotation = ocr.page.rotationApplied;
                ocrPageCount++;
            }
            else {
                blocks = withHeadings(laid.blocks, laid.headings, headingSizes, body);
                spatial = laid.spatial;
            }
            units.push({
                pageNumber: laid.number,
                page: { number: laid.number, width: round2(width), height: round2(height) },
                blocks: blocks.map((block) => clampBlock(block, width, height)),
                spatial,
            });
            pages.push({
                number: laid.number,
                rotationApplied: rotation,
                originalPageWidth: round2(laid.originalWidth),
                originalPageHeight: round2(laid.originalHeight),
                dpi: 72,
            });
        }
        const simplePageCount = laidPages.filter((page) => !page.complex && !page.scanned).length;
        return { units, pages, pageCount: laidPages.length, ocrPageCount, simplePageCount };
    }
    finally {
        context.signal.removeEventListener('abort', onAbort);
        await task.destroy().catch(() => undefined);
    }
}
function within(box, width, height) {
    return (box.left >= 0 &&
        box.left <= width &&
        box.right >= 0 &&
        box.right <= width &&
        box.top >= 0 &&
        box.top <= height &&
        box.bottom >= 0 &&
        box.bottom <= height);
}
/** True when clamping would change nothing (the walk {@link clampBlock} does). */
function inPage(block, width, height) {
    if (!block.boundingBox)
        return true;
    return (within(block.boundingBox, width, height) &&
        (block.children ?? []).every((child) => inPage(child, width, height)));
}
function clampBlock(block, width, height) {
    if (!block.boundingBox)
        return block;
    // Nearly every block is inside its page already: no copy of it (20,000 on 200 report pages).
    if (inPage(block, width, height))
        return block;
    return {
        ...block,
        boundingBox: clampBox(block.boundingBox, width, height),
        ...(block.children
            ? { children: block.children.map((c) => clampBlock(c, width, height)) }
            : {}),
    };
}
//# sourceMappingURL=parse-pdf.js.map