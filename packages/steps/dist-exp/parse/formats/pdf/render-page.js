import { grayFromRgba } from '../../ocr/gray-image.js';
/** Largest rendered side, pixels: bounds memory for huge page boxes. */
const MAX_SIDE = 6000;
/**
 * Renders a PDF page (with its `/Rotate`) at `dpi` through pdf.js and @napi-rs/canvas (prebuilt
 * binaries from npm, no system libraries) to gray pixels: OCR reads them as they are, where a PNG
 * would be compressed here only to be decompressed again inside tesseract.
 */
export async function renderPdfPage(doc, number, dpi) {
    const { createCanvas } = await import('@napi-rs/canvas');
    const page = await doc.getPage(number);
    try {
        const base = page.getViewport({ scale: 1 });
        const scale = Math.min(dpi / 72, MAX_SIDE / Math.max(base.width, base.height));
        const viewport = page.getViewport({ scale });
        const width = Math.ceil(viewport.width);
        const height = Math.ceil(viewport.height);
        const canvas = createCanvas(width, height);
        const context = canvas.getContext('2d');
        context.fillStyle = '#ffffff';
        context.fillRect(0, 0, width, height);
        await page.render({
            canvasContext: context,
            canvas: canvas,
            viewport,
        }).promise;
        const pixels = context.getImageData(0, 0, width, height);
        return { image: grayFromRgba(pixels.data, width, height), dpi: scale * 72 };
    }
    finally {
        page.cleanup();
    }
}
//# sourceMappingURL=render-page.js.map