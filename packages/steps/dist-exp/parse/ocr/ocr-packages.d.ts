import { type OptionalPackage } from '../../optional/optional-package.ts';
import type { FormatContext } from '../format-context.ts';
/**
 * What OCR of a page needs under the parse's config: recognition (tesseract.js and its English
 * model), gray images (sharp: scaling, turning, the PNG orientation detection reads), the
 * orientation model when page rotation is on, and zxing-wasm when barcodes are read. (Rendering
 * a PDF page takes @napi-rs/canvas, which is not optional: pdf.js needs its DOMMatrix to load.)
 */
export declare function ocrPackages(context: FormatContext): OptionalPackage[];
/**
 * Fails the parse with OCR_ERROR, naming every package OCR lacks here and how to add them,
 * before any page is read: a user learns everything at once, and no work is wasted.
 */
export declare function checkOcrPackages(context: FormatContext, source: 'image' | 'pdf'): void;
//# sourceMappingURL=ocr-packages.d.ts.map