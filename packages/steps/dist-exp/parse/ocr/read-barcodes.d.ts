import type { DraftBlock } from '../draft-document.ts';
import { type GrayImage } from './gray-image.ts';
/** Barcodes in a gray page as barcode blocks, corner points scaled to points. */
export declare function readBarcodeBlocks(image: GrayImage, pointsPerPixel: number): Promise<DraftBlock[]>;
//# sourceMappingURL=read-barcodes.d.ts.map