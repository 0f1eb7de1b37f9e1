import { loadSharp } from '../../optional/optional-package.js';
import { mapLimit } from '../map-limit.js';
import { decodeGray } from '../ocr/gray-image.js';
import { checkOcrPackages } from '../ocr/ocr-packages.js';
import { ocrPage } from '../ocr/ocr-page.js';
import { ocrPoolSize } from '../ocr/ocr-pool.js';
import { ParseFailure } from '../parse-failure.js';
import { inPageRanges } from '../resolve-parse-config.js';
/** Images larger than this many pixels are refused (a decompression bomb in a PNG header). */
const MAX_PIXELS = 100_000_000;
/** BMP is not read by libvips; @napi-rs/canvas decodes it. */
async function decodeWithCanvas(bytes) {
    const { createCanvas, loadImage } = await import('@napi-rs/canvas');
    const image = await loadImage(Buffer.from(bytes));
    const canvas = createCanvas(image.width, image.height);
    canvas.getContext('2d').drawImage(image, 0, 0);
    return canvas.toBuffer('image/png');
}
/**
 * Images (PNG, JPEG, TIFF with one or more pages, WebP, GIF, BMP): decoded with sharp (EXIF
 * orientation applied), then OCR per page. Coordinates are points at the image's DPI (72 when
 * the file states none).
 */
export async function parseImage(bytes, context) {
    let pages = 1;
    let density = 72;
    let bmp;
    checkOcrPackages(context, 'image');
    const sharp = await loadSharp('Parsing images');
    try {
        const meta = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
        // The header states the size: refuse a pixel bomb before decoding anything.
        if ((meta.width ?? 0) * (meta.pageHeight ?? meta.height ?? 0) > MAX_PIXELS) {
            throw new Error('pixel limit exceeded');
        }
        pages = context.mimeType === 'image/tiff' ? (meta.pages ?? 1) : 1;
        // Without a stated resolution, a page-sized bitmap is most likely a 300-DPI scan; small
        // images (screenshots, logos) keep 72 so that a pixel is a point.
        const longest = Math.max(meta.width ?? 0, meta.height ?? 0);
        density = meta.density && meta.density > 0 ? meta.density : longest >= 2000 ? 300 : 72;
    }
    catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (/pixel limit/i.test(message)) {
            throw new ParseFailure('FILE_SIZE_TOO_LARGE', `The image has more than ${MAX_PIXELS} pixels; downscale it to 300 DPI.`);
        }
        if (context.mimeType === 'image/bmp')
            bmp = await decodeWithCanvas(bytes).catch(() => undefined);
        if (!bmp) {
            throw new ParseFailure('CORRUPT_FILE', `The image could not be decoded (${message}). Re-export it as PNG or JPEG.`, {
                cause: error,
            });
        }
    }
    const selected = [];
    for (let n = 1; n <= pages; n++)
        if (inPageRanges(n, context.config.pageRanges))
            selected.push(n);
    if (selected.length === 0) {
        throw new ParseFailure('INVALID_CONFIG_OPTIONS', `advancedOptions.pageRanges selects no page of this ${pages}-page image.`);
    }
    if (selected.length > context.limits.maxPages) {
        throw new ParseFailure('FILE_SIZE_TOO_LARGE', `The image has ${selected.length} pages; the limit is ${context.limits.maxPages}.`);
    }
    context.progress?.start(selected.length);
    const results = await mapLimit(selected, ocrPoolSize(), async (number) => {
        let image;
        try {
            image = await decodeGray(bmp ?? bytes, bmp ? 0 : number - 1, MAX_PIXELS);
        }
        catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            throw new ParseFailure('CORRUPT_FILE', `Page ${number} of the image could not be decoded (${message}).`, { cause: error });
        }
        const result = await ocrPage({ image, dpi: density }, number, context, {
            width: (image.width * 72) / density,
            height: (image.height * 72) / density,
        });
        context.progress?.pageDone();
        return result;
    });
    return {
        units: results.map((result) => result.unit),
        pages: results.map((result) => result.page),
        pageCount: results.length,
        ocrPageCount: results.length,
    };
}
//# sourceMappingURL=parse-image.js.map