import type { DraftBlock } from '../draft-document.ts';
import type { BoundingBox } from '../parse-output.ts';
import type { OcrParagraphPx } from './ocr-pool.ts';
/** OCR paragraphs (pixels) as text blocks in points, with confidences and word boxes. */
export declare function ocrBlocks(paragraphs: readonly OcrParagraphPx[], pointsPerPixel: number, offset?: {
    x: number;
    y: number;
}): {
    blocks: DraftBlock[];
    lines: {
        text: string;
        box: BoundingBox;
    }[];
};
//# sourceMappingURL=ocr-blocks.d.ts.map