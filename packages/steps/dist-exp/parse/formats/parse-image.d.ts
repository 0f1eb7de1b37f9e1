import type { DraftDocument } from '../draft-document.ts';
import type { FormatContext } from '../format-context.ts';
/**
 * Images (PNG, JPEG, TIFF with one or more pages, WebP, GIF, BMP): decoded with sharp (EXIF
 * orientation applied), then OCR per page. Coordinates are points at the image's DPI (72 when
 * the file states none).
 */
export declare function parseImage(bytes: Uint8Array, context: FormatContext): Promise<DraftDocument>;
//# sourceMappingURL=parse-image.d.ts.map