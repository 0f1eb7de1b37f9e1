import { loadSharp } from '../../optional/optional-package.ts';
import type { DraftDocument } from '../draft-document.ts';
import { type FormatContext, MAX_IMAGE_PIXELS } from '../format-context.ts';
import { mapLimit } from '../map-limit.ts';
import { decodeGray, type GrayImage } from '../ocr/gray-image.ts';
import { checkOcrPackages } from '../ocr/ocr-packages.ts';
import { ocrPage } from '../ocr/ocr-page.ts';
import { ocrPoolSize } from '../ocr/ocr-pool.ts';
import { ParseFailure } from '../parse-failure.ts';
import { inPageRanges } from '../resolve-parse-config.ts';

/**
 * The pixels a BMP's header declares (width × height; a top-down image gives a negative height),
 * or 0 when the header is too short to say: read before @napi-rs/canvas decodes it, which takes
 * no pixel limit.
 */
export function bmpPixels(bytes: Uint8Array): number {
  if (bytes.length < 26 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) return 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // BITMAPCOREHEADER (12 bytes) has 16-bit sizes; every later header 32-bit signed ones.
  if (view.getUint32(14, true) === 12) return view.getUint16(18, true) * view.getUint16(20, true);
  return Math.abs(view.getInt32(18, true)) * Math.abs(view.getInt32(22, true));
}

/** BMP is not read by libvips; @napi-rs/canvas decodes it (after {@link bmpPixels} is checked). */
async function decodeWithCanvas(bytes: Uint8Array): Promise<Buffer> {
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
export async function parseImage(
  bytes: Uint8Array,
  context: FormatContext,
): Promise<DraftDocument> {
  let pages = 1;
  let density = 72;
  let bmp: Buffer | undefined;
  checkOcrPackages(context, 'image');
  const sharp = await loadSharp('Parsing images');
  try {
    const meta = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
    // The header states the size: refuse a pixel bomb before decoding anything.
    if ((meta.width ?? 0) * (meta.pageHeight ?? meta.height ?? 0) > MAX_IMAGE_PIXELS) {
      throw new Error('pixel limit exceeded');
    }
    pages = context.mimeType === 'image/tiff' ? (meta.pages ?? 1) : 1;
    // Without a stated resolution, a page-sized bitmap is most likely a 300-DPI scan; small
    // images (screenshots, logos) keep 72 so that a pixel is a point.
    const longest = Math.max(meta.width ?? 0, meta.height ?? 0);
    density = meta.density && meta.density > 0 ? meta.density : longest >= 2000 ? 300 : 72;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const tooLarge =
      /pixel limit/i.test(message) ||
      (context.mimeType === 'image/bmp' && bmpPixels(bytes) > MAX_IMAGE_PIXELS);
    if (tooLarge) {
      throw new ParseFailure(
        'FILE_SIZE_TOO_LARGE',
        `The image has more than ${MAX_IMAGE_PIXELS} pixels; downscale it to 300 DPI.`,
      );
    }
    if (context.mimeType === 'image/bmp')
      bmp = await decodeWithCanvas(bytes).catch(() => undefined);
    if (!bmp) {
      throw new ParseFailure(
        'CORRUPT_FILE',
        `The image could not be decoded (${message}). Re-export it as PNG or JPEG.`,
        {
          cause: error,
        },
      );
    }
  }
  const selected: number[] = [];
  for (let n = 1; n <= pages; n++) if (inPageRanges(n, context.config.pageRanges)) selected.push(n);
  if (selected.length === 0) {
    throw new ParseFailure(
      'INVALID_CONFIG_OPTIONS',
      `advancedOptions.pageRanges selects no page of this ${pages}-page image.`,
    );
  }
  if (selected.length > context.limits.maxPages) {
    throw new ParseFailure(
      'FILE_SIZE_TOO_LARGE',
      `The image has ${selected.length} pages; the limit is ${context.limits.maxPages}.`,
    );
  }
  context.progress?.start(selected.length);
  const results = await mapLimit(selected, ocrPoolSize(), async (number) => {
    let image: GrayImage;
    try {
      image = await decodeGray(bmp ?? bytes, bmp ? 0 : number - 1, MAX_IMAGE_PIXELS);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ParseFailure(
        'CORRUPT_FILE',
        `Page ${number} of the image could not be decoded (${message}).`,
        { cause: error },
      );
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
