import type { OcrPagePx } from './ocr-pool.ts';
/**
 * True when a recognition result shows an upright page: enough words, read confidently, on
 * horizontal lines. Most pages are upright, so OCR recognises first and runs orientation
 * detection (OSD, about a quarter of the recognition time) only when this is false. A page
 * turned 90° can read confidently (tesseract follows vertical lines), hence the baseline test.
 */
export declare function looksUpright(page: OcrPagePx): boolean;
//# sourceMappingURL=looks-upright.d.ts.map