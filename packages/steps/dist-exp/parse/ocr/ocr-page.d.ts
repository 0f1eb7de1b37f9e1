import type { DraftUnit } from '../draft-document.ts';
import type { FormatContext } from '../format-context.ts';
import type { OutputPageMetadata } from '../parse-output.ts';
import { type GrayImage } from './gray-image.ts';
/** One page to OCR: its gray pixels and their resolution. */
export interface OcrInput {
    readonly image: GrayImage;
    readonly dpi: number;
}
/**
 * OCR of one page, an image's or a rendered PDF page's: recognition on the worker pool,
 * orientation by OSD (when enabled and the page does not read as upright), barcodes when asked.
 * Returns the unit and its page metadata.
 */
export declare function ocrPage(input: OcrInput, number: number, context: FormatContext, original: {
    width: number;
    height: number;
}): Promise<{
    unit: DraftUnit;
    page: OutputPageMetadata;
}>;
//# sourceMappingURL=ocr-page.d.ts.map