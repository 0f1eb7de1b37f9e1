import { ocrPage } from '../../ocr/ocr-page.js';
import { renderPdfPage } from './render-page.js';
/**
 * OCR resolution for scanned PDF pages: as accurate as 300 DPI on text of 8 pt and up, a third
 * faster (parsing-research.md §2.2).
 */
const OCR_DPI = 200;
/** OCR of a PDF page without a text layer: rendered to gray at 200 DPI, then recognised. */
export async function ocrPdfPage(doc, number, context, original) {
    const rendered = await renderPdfPage(doc, number, OCR_DPI);
    context.signal.throwIfAborted();
    const { unit, page } = await ocrPage(rendered, number, context, original);
    return {
        blocks: [...unit.blocks],
        spatial: unit.spatial ?? '',
        width: unit.page?.width ?? original.width,
        height: unit.page?.height ?? original.height,
        page,
    };
}
//# sourceMappingURL=ocr-pdf-page.js.map