import { type GrayImage } from './gray-image.ts';
/** A recognised word, pixel coordinates. */
export interface OcrWordPx {
    readonly text: string;
    /** 0..100 as tesseract reports it. */
    readonly confidence: number;
    readonly bbox: {
        x0: number;
        y0: number;
        x1: number;
        y1: number;
    };
}
/** A recognised paragraph: its lines of words. */
export interface OcrParagraphPx {
    readonly lines: readonly (readonly OcrWordPx[])[];
    readonly bbox: {
        x0: number;
        y0: number;
        x1: number;
        y1: number;
    };
}
/** What recognition of one page gives: paragraphs, and what tells an upright page. */
export interface OcrPagePx {
    readonly paragraphs: OcrParagraphPx[];
    /** Words recognised, and their mean confidence (0..100; 0 without words). */
    readonly words: number;
    readonly meanConfidence: number;
    /** Text lines, and those whose baseline runs more down than across (a page turned 90°). */
    readonly lines: number;
    readonly verticalLines: number;
}
/**
 * Terminates the OCR workers (they are re-created on demand). Call before a process that used
 * OCR exits early; idle workers also close by themselves after a few seconds.
 */
export declare function closeOcrPool(): Promise<void>;
/** The size of the OCR worker pool (CPU count, 1 to 4). */
export declare function ocrPoolSize(): number;
/** The pool's work since the process started: workers created, pages recognised, OSD runs. */
export declare function ocrPoolStats(): {
    workersStarted: number;
    recognitions: number;
    orientationDetections: number;
};
/**
 * Recognises one gray page at `dpi` into paragraphs of words, on a pooled worker. Only the block
 * tree is asked for: text, hOCR, TSV and PDF renderings would each cost a pass over the result.
 */
export declare function recognize(image: GrayImage, dpi: number): Promise<OcrPagePx>;
/**
 * Page orientation with tesseract's OSD model: the clockwise degrees (0, 90, 180, 270) that turn
 * the image upright. Serialised on one legacy-engine worker.
 */
export declare function detectOrientation(image: GrayImage, dpi: number): Promise<number>;
//# sourceMappingURL=ocr-pool.d.ts.map