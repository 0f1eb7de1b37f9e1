import { isMissingPackageError } from '../../optional/optional-package.ts';
import { round2 } from '../boxes.ts';
import type { DraftBlock, DraftUnit } from '../draft-document.ts';
import type { FormatContext } from '../format-context.ts';
import { ParseFailure } from '../parse-failure.ts';
import type { OutputPageMetadata } from '../parse-output.ts';
import { spatialText } from '../spatial-text.ts';
import { dropSpecks } from './drop-specks.ts';
import { type GrayImage, rotateGray, scaleGray } from './gray-image.ts';
import { looksUpright } from './looks-upright.ts';
import { ocrBlocks } from './ocr-blocks.ts';
import { detectOrientation, type OcrPagePx, recognize } from './ocr-pool.ts';
import { readFigures } from './read-figures.ts';
import { rereadColumns } from './reread-columns.ts';
import { rereadEmptyColumns } from './reread-empty-columns.ts';
import { rereadFigures, rereadFiguresInEnglish } from './reread-figures.ts';

/**
 * Recognition resolution cap: 200 DPI reads text of 8 pt and up as well as 300 DPI and is a
 * third faster (parsing-research.md §2.2); larger scans are downscaled first.
 */
const OCR_MAX_DPI = 200;

/**
 * Most pixels recognition reads from one page: tesseract's memory (WebAssembly, outside any V8
 * heap limit) grows with the page, a few times its pixel count. 36 megapixels is a page of 76 ×
 * 76 cm at 200 DPI, or what a PDF page renders to at most (render-page.ts); a larger image is
 * downscaled to it before recognition.
 */
export const OCR_MAX_PIXELS = 36_000_000;

/**
 * The resolution a page of `width` × `height` pixels at `dpi` is recognised at: at most
 * {@link OCR_MAX_DPI}, and lower where that would still be more than {@link OCR_MAX_PIXELS}.
 */
export function ocrDpi(width: number, height: number, dpi: number): number {
  const capped = Math.min(dpi, OCR_MAX_DPI);
  const pixels = width * height * (capped / dpi) ** 2;
  return pixels > OCR_MAX_PIXELS ? capped * Math.sqrt(OCR_MAX_PIXELS / pixels) : capped;
}

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

/**
 * OCR of one page, an image's or a rendered PDF page's: recognition on the worker pool,
 * orientation by OSD (when enabled and the page does not read as upright), barcodes when asked.
 * Returns the unit and its page metadata.
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
    const target = ocrDpi(image.width, image.height, dpi);
    if (target < dpi) {
      image = await scaleGray(image, target / dpi);
      dpi = target;
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
    // Narrow columns read as rows, specks out, table columns left empty read as rows, doubtful
    // figures of table columns read again, totals and doubtful figures read again with English
    // alone, amounts' points put back.
    const rows = await rereadColumns(read, image, dpi);
    context.signal.throwIfAborted();
    const filled = await rereadEmptyColumns(dropSpecks(rows), image, dpi);
    context.signal.throwIfAborted();
    const figures = await rereadFigures(filled, image, dpi);
    context.signal.throwIfAborted();
    const cleaned = readFigures(await rereadFiguresInEnglish(figures, image, dpi));
    context.signal.throwIfAborted();
    const { blocks, lines } = ocrBlocks(cleaned.paragraphs, ppp);
    const all: DraftBlock[] = [...blocks];
    if (context.config.barcodesReading) {
      const { readBarcodeBlocks } = await import('./read-barcodes.ts');
      all.push(...(await readBarcodeBlocks(image, ppp)));
    }
    const pageWidth = width * ppp;
    const pageHeight = height * ppp;
    return {
      unit: {
        pageNumber: number,
        page: { number, width: round2(pageWidth), height: round2(pageHeight) },
        blocks: all,
        spatial: spatialText(lines, pageWidth),
      },
      page: {
        number,
        rotationApplied: rotation,
        originalPageWidth: round2(original.width),
        originalPageHeight: round2(original.height),
        dpi: 72,
      },
    };
  } catch (error) {
    context.signal.throwIfAborted();
    if (error instanceof ParseFailure) throw error;
    if (isMissingPackageError(error)) throw new ParseFailure('OCR_ERROR', error.message);
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
