import { MissingPackageError, requirePackages, } from '../../optional/optional-package.js';
import { ParseFailure } from '../parse-failure.js';
/**
 * What OCR of a page needs under the parse's config: recognition (tesseract.js and its English
 * model), gray images (sharp: scaling, turning, the PNG orientation detection reads), the
 * orientation model when page rotation is on, and zxing-wasm when barcodes are read. (Rendering
 * a PDF page takes @napi-rs/canvas, which is not optional: pdf.js needs its DOMMatrix to load.)
 */
export function ocrPackages(context) {
    const packages = ['tesseract.js', '@tesseract.js-data/eng', 'sharp'];
    if (context.config.pageRotationEnabled)
        packages.push('@tesseract.js-data/osd');
    if (context.config.barcodesReading)
        packages.push('zxing-wasm');
    return packages;
}
/**
 * Fails the parse with OCR_ERROR, naming every package OCR lacks here and how to add them,
 * before any page is read: a user learns everything at once, and no work is wasted.
 */
export function checkOcrPackages(context, source) {
    try {
        requirePackages(source === 'image' ? 'Parsing images (OCR)' : 'OCR of scanned PDF pages', ocrPackages(context));
    }
    catch (error) {
        if (error instanceof MissingPackageError)
            throw new ParseFailure('OCR_ERROR', error.message);
        throw error;
    }
}
//# sourceMappingURL=ocr-packages.js.map