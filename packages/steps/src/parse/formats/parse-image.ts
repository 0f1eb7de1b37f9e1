import sharp from 'sharp';
import type { DraftBlock, DraftDocument, DraftUnit } from '../draft-document.ts';
import { mapLimit } from '../map-limit.ts';
import { decodeGray, type GrayImage, rotateGray, scaleGray } from '../ocr/gray-image.ts';
import { looksUpright } from '../ocr/looks-upright.ts';
import { ocrBlocks } from '../ocr/ocr-blocks.ts';
import { detectOrientation, type OcrPagePx, ocrPoolSize, recognize } from '../ocr/ocr-pool.ts';
import type { FormatContext } from '../parse-document.ts';
import { ParseFailure } from '../parse-failure.ts';
import type { OutputPageMetadata } from '../parse-output.ts';
import { inPageRanges } from '../resolve-parse-config.ts';
import { spatialText } from './pdf/page-layout.ts';

/** Images larger than this many pixels are refused (a decompression bomb in a PNG header). */
const MAX_PIXELS = 100_000_000;

/**
 * Recognition resolution cap: 200 DPI reads text of 8 pt and up as well as 300 DPI and is a
 * third faster (parsing-research.md §2.2); larger scans are downscaled first.
 */
const OCR_MAX_DPI = 200;

/** Resolution given to orientation detection: it needs fewer pixels than recognition. */
const OSD_DPI = 150;

/**
 * Parses in which a page turned out rotated: their later pages get OSD before recognition, as
 * scans of one batch tend to be turned alike (a duplex scanner can turn every back side).
 */
const turnedParses = new WeakSet<FormatContext>();

/** One page to OCR: its gray pixels and their resolution. */
export interface OcrInput {
  readonly image: GrayImage;
  readonly dpi: number;
}

/** BMP is not read by libvips; @napi-rs/canvas decodes it. */
async function decodeWithCanvas(bytes: Uint8Array): Promise<Buffer> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(Buffer.from(bytes));
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return canvas.toBuffer('image/png');
}

/**
 * OCR of one upright-able page: recognition on the worker pool, orientation by OSD (when enabled
 * and the page does not read as upright), barcodes when asked. Returns the unit and its page
 * metadata.
 */
export async function ocrPage(
  input: OcrInput,
  number: number,
  context: FormatContext,
  original: { width: number; height: number },
): Promise<{ unit: DraftUnit; page: OutputPageMetadata }> {
  let image = input.image;
  let dpi = input.dpi;
  let rotation: number | null = null;
  try {
    if (dpi > OCR_MAX_DPI) {
      image = await scaleGray(image, OCR_MAX_DPI / dpi);
      dpi = OCR_MAX_DPI;
    }
    let read: OcrPagePx | undefined;
    if (context.config.pageRotationEnabled) {
      // Most pages come upright and portrait: recognise first, and pay for OSD only when the
      // text does not read as upright (a turned page is then recognised again, upright). A
      // landscape image is often a portrait page fed sideways, so OSD goes first there, and
      // for the rest of a document once one of its pages was turned.
      if (image.width <= image.height && !turnedParses.has(context)) {
        read = await recognize(image, dpi);
        context.signal.throwIfAborted();
      }
      rotation = 0;
      if (!read || !looksUpright(read)) {
        // Orientation needs far fewer pixels than recognition.
        const small = dpi > OSD_DPI ? await scaleGray(image, OSD_DPI / dpi) : image;
        rotation = await detectOrientation(small, Math.min(dpi, OSD_DPI));
        if (rotation !== 0) {
          turnedParses.add(context);
          image = await rotateGray(image, rotation);
          read = undefined;
        }
      }
    }
    context.signal.throwIfAborted();
    read ??= await recognize(image, dpi);
    context.signal.throwIfAborted();
    const { width, height } = image;
    const ppp = 72 / dpi;
    const { blocks, lines } = ocrBlocks(read.paragraphs, ppp);
    const all: DraftBlock[] = [...blocks];
    if (context.config.barcodesReading) {
      const { readBarcodeBlocks } = await import('../ocr/read-barcodes.ts');
      all.push(...(await readBarcodeBlocks(image, ppp)));
    }
    const pageWidth = width * ppp;
    const pageHeight = height * ppp;
    return {
      unit: {
        pageNumber: number,
        page: { number, width: round(pageWidth), height: round(pageHeight) },
        blocks: all,
        spatial: spatialText(lines, pageWidth),
      },
      page: {
        number,
        rotationApplied: rotation,
        originalPageWidth: round(original.width),
        originalPageHeight: round(original.height),
        dpi: 72,
      },
    };
  } catch (error) {
    context.signal.throwIfAborted();
    if (error instanceof ParseFailure) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ParseFailure(
      'OCR_ERROR',
      `OCR of page ${number} failed: ${message}. Try a clearer scan (300 DPI).`,
      {
        cause: error,
      },
    );
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
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
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) {
      throw new ParseFailure(
        'FILE_SIZE_TOO_LARGE',
        `The image has more than ${MAX_PIXELS} pixels; downscale it to 300 DPI.`,
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
      image = await decodeGray(bmp ?? bytes, bmp ? 0 : number - 1, MAX_PIXELS);
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
