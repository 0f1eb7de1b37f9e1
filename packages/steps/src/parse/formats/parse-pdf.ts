import { clampBox, round2 } from '../boxes.ts';
import type { DraftBlock, DraftDocument, DraftUnit } from '../draft-document.ts';
import type { FormatContext } from '../format-context.ts';
import { mapLimit } from '../map-limit.ts';
import { checkOcrPackages } from '../ocr/ocr-packages.ts';
import { ParseFailure } from '../parse-failure.ts';
import type { BoundingBox, OutputPageMetadata } from '../parse-output.ts';
import { inPageRanges } from '../resolve-parse-config.ts';
import { bodySize, headingSizesOf, withHeadings } from './pdf/headings.ts';
import { openPdfSession } from './pdf/pdf-session.ts';
import { spareCore } from './pdf/pdf-worker-pool.ts';
import { PDF_WORKER_THRESHOLD, readPages } from './pdf/read-pages.ts';

function selectPages(count: number, context: FormatContext): number[] {
  const pages: number[] = [];
  for (let n = 1; n <= count; n++) {
    if (inPageRanges(n, context.config.pageRanges)) pages.push(n);
  }
  return pages;
}

/**
 * Born-digital and scanned PDF through pdf.js: text runs placed in the upright frame (`/Rotate`
 * and turned text), ruled tables from the page content stream (pdf.js's operator list where
 * that reader steps aside), reading order by XY-cut, headings by font size, AcroForm fields as
 * key_value blocks; pages without a text layer are rendered and OCRed. pdf.js runs on a pooled
 * worker thread with a heap bounded by the document's size (pdf-session.ts); large documents are
 * read by further pooled worker threads too.
 */
export async function parsePdf(bytes: Uint8Array, context: FormatContext): Promise<DraftDocument> {
  const session = await openPdfSession(bytes, context);
  try {
    if (session.numPages === 0) {
      throw new ParseFailure(
        'CORRUPT_FILE',
        'The PDF has no pages. Re-export it from the source application.',
      );
    }
    const selected = selectPages(session.numPages, context);
    if (selected.length === 0) {
      throw new ParseFailure(
        'INVALID_CONFIG_OPTIONS',
        `advancedOptions.pageRanges selects no page of this ${session.numPages}-page PDF.`,
      );
    }
    if (selected.length > context.limits.maxPages) {
      throw new ParseFailure(
        'FILE_SIZE_TOO_LARGE',
        `The selection has ${selected.length} pages; the limit is ${context.limits.maxPages}. Narrow advancedOptions.pageRanges or raise limits.maxPages.`,
      );
    }
    context.progress?.start(selected.length);
    // Further worker threads where a core is idle to run them, unless the caller decided
    // (decision 0012).
    const workers =
      context.pdfWorkers === 'always' || (context.pdfWorkers === 'auto' && spareCore());
    const threshold = workers ? PDF_WORKER_THRESHOLD : Number.POSITIVE_INFINITY;
    const { pages: laidPages } = await readPages(bytes, session, selected, context, threshold);

    const sizes = new Map<number, number>();
    for (const page of laidPages) {
      for (const [size, chars] of page.sizes) sizes.set(size, (sizes.get(size) ?? 0) + chars);
    }
    const sizeList = [...sizes].map(([size, chars]) => ({ size, chars }));
    const body = bodySize(sizeList);
    const headingSizes = headingSizesOf(sizeList, body);

    // Scanned pages are rendered and OCRed concurrently, as many as the OCR pool has workers.
    const scanned = laidPages.filter((page) => page.scanned);
    const ocrResults = new Map<
      number,
      Awaited<ReturnType<typeof import('./pdf/ocr-pdf-page.ts')['ocrPdfPage']>>
    >();
    if (scanned.length > 0) {
      checkOcrPackages(context, 'pdf');
      const [{ ocrPdfPage }, { ocrPoolSize }] = await Promise.all([
        import('./pdf/ocr-pdf-page.ts'),
        import('../ocr/ocr-pool.ts'),
      ]);
      await mapLimit(scanned, ocrPoolSize(), async (page) => {
        const result = await ocrPdfPage(session, page.number, context, {
          width: page.originalWidth,
          height: page.originalHeight,
        });
        ocrResults.set(page.number, result);
        context.progress?.pageDone();
      });
    }
    const units: DraftUnit[] = [];
    const pages: OutputPageMetadata[] = [];
    let ocrPageCount = 0;
    for (const laid of laidPages) {
      let blocks: readonly DraftBlock[];
      let spatial: string;
      let width = laid.width;
      let height = laid.height;
      let rotation = laid.rotation;
      const ocr = ocrResults.get(laid.number);
      if (ocr) {
        blocks = ocr.blocks;
        spatial = ocr.spatial;
        width = ocr.width;
        height = ocr.height;
        // What OSD found on the page rendered as a viewer shows it (its /Rotate applied).
        rotation = ocr.page.rotationApplied;
        ocrPageCount++;
      } else {
        blocks = withHeadings(laid.blocks, laid.headings, headingSizes, body);
        spatial = laid.spatial;
      }
      units.push({
        pageNumber: laid.number,
        page: { number: laid.number, width: round2(width), height: round2(height) },
        blocks: blocks.map((block) => clampBlock(block, width, height)),
        spatial,
      });
      pages.push({
        number: laid.number,
        rotationApplied: rotation,
        originalPageWidth: round2(laid.originalWidth),
        originalPageHeight: round2(laid.originalHeight),
        dpi: 72,
      });
    }
    const simplePageCount = laidPages.filter((page) => !page.complex && !page.scanned).length;
    return { units, pages, pageCount: laidPages.length, ocrPageCount, simplePageCount };
  } finally {
    await session.close();
  }
}

function within(box: BoundingBox, width: number, height: number): boolean {
  return (
    box.left >= 0 &&
    box.left <= width &&
    box.right >= 0 &&
    box.right <= width &&
    box.top >= 0 &&
    box.top <= height &&
    box.bottom >= 0 &&
    box.bottom <= height
  );
}

/** True when clamping would change nothing (the walk {@link clampBlock} does). */
function inPage(block: DraftBlock, width: number, height: number): boolean {
  if (!block.boundingBox) return true;
  return (
    within(block.boundingBox, width, height) &&
    (block.children ?? []).every((child) => inPage(child, width, height))
  );
}

function clampBlock(block: DraftBlock, width: number, height: number): DraftBlock {
  if (!block.boundingBox) return block;
  // Nearly every block is inside its page already: no copy of it (20,000 on 200 report pages).
  if (inPage(block, width, height)) return block;
  return {
    ...block,
    boundingBox: clampBox(block.boundingBox, width, height),
    ...(block.children
      ? { children: block.children.map((c) => clampBlock(c, width, height)) }
      : {}),
  };
}
