import { type GrayImage } from '../../ocr/gray-image.ts';
import type { PdfDocument } from './pdfjs.ts';
/**
 * Renders a PDF page (with its `/Rotate`) at `dpi` through pdf.js and @napi-rs/canvas (prebuilt
 * binaries from npm, no system libraries) to gray pixels: OCR reads them as they are, where a PNG
 * would be compressed here only to be decompressed again inside tesseract.
 */
export declare function renderPdfPage(doc: PdfDocument, number: number, dpi: number): Promise<{
    image: GrayImage;
    dpi: number;
}>;
//# sourceMappingURL=render-page.d.ts.map