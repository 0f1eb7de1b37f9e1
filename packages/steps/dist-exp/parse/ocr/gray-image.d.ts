/**
 * An 8-bit grayscale bitmap, one byte per pixel, rows top to bottom without padding: what OCR
 * reads. Pages stay in this form from decoding to tesseract, so no PNG is encoded and decoded
 * again on the way (tesseract converts colour to gray itself, at a cost, anyway).
 */
export interface GrayImage {
    readonly data: Uint8Array;
    readonly width: number;
    readonly height: number;
}
/**
 * The image as a binary PGM (P5): a header in front of the raw pixels, which leptonica reads
 * without decompressing anything.
 */
export declare function toPgm(image: GrayImage): Buffer;
/**
 * The image as a PNG that records `dpi`. Orientation detection reads the resolution from the
 * image itself (user_defined_dpi does not reach it); PGM cannot carry one.
 */
export declare function toPng(image: GrayImage, dpi: number): Promise<Buffer>;
/**
 * Decodes one page of an image file to gray: EXIF orientation applied, transparency flattened
 * onto white (dark text on a transparent background would otherwise read as a black page).
 * An 8-bit gray image without transparency, what scanners write, is taken as it is.
 */
export declare function decodeGray(bytes: Uint8Array, page: number, limitInputPixels: number): Promise<GrayImage>;
/** The image scaled by `factor` (< 1 to shrink), at least one pixel each way. */
export declare function scaleGray(image: GrayImage, factor: number): Promise<GrayImage>;
/** The image turned clockwise by a multiple of 90 degrees. */
export declare function rotateGray(image: GrayImage, degrees: number): Promise<GrayImage>;
/** Luma of RGBA pixels (as a canvas gives them), for pages rendered from a PDF. */
export declare function grayFromRgba(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): GrayImage;
/** RGBA pixels of a gray image, for readers that take canvas-style image data. */
export declare function rgbaFromGray(image: GrayImage): Uint8ClampedArray;
//# sourceMappingURL=gray-image.d.ts.map