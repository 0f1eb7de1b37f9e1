import type { DraftBlock, DraftDocument, DraftUnit } from '../draft-document.ts';
import { mapLimit } from '../map-limit.ts';
import type { FormatContext } from '../parse-document.ts';
import { ParseFailure } from '../parse-failure.ts';
import type { BoundingBox, OutputPageMetadata } from '../parse-output.ts';
import { inPageRanges } from '../resolve-parse-config.ts';
import { clampBox, type Matrix } from './pdf/geometry.ts';
import { readPageGraphics } from './pdf/page-graphics.ts';
import { bodySize, headingSizesOf, layoutPage, spatialText } from './pdf/page-layout.ts';
import { loadPdfJs, PDFJS_ASSETS } from './pdf/pdfjs.ts';
import { findRuledTables } from './pdf/ruled-tables.ts';
import { type PdfTextItem, placeTextRuns, type TextRun, toUpright } from './pdf/text-runs.ts';

interface PageScan {
  number: number;
  width: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
  rotation: number | null;
  runs: TextRun[];
  tables: ReturnType<typeof findRuledTables>;
  images: BoundingBox[];
  fields: DraftBlock[];
  scanned: boolean;
}

/** Fewer visible characters than this on a page mostly covered by an image: a scan. */
const SCAN_TEXT_THRESHOLD = 20;

function pdfError(error: unknown): ParseFailure {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') {
    return new ParseFailure(
      'PASSWORD_PROTECTED_FILE',
      'The PDF is password-protected. Upload it with its password (files.upload password) or remove the protection, then parse again.',
    );
  }
  return new ParseFailure(
    'CORRUPT_FILE',
    `The PDF could not be read (${message}). It may be truncated or damaged; re-export it from the source application.`,
    { cause: error },
  );
}

function selectPages(count: number, context: FormatContext): number[] {
  const pages: number[] = [];
  for (let n = 1; n <= count; n++) {
    if (inPageRanges(n, context.config.pageRanges)) pages.push(n);
  }
  return pages;
}

/**
 * Born-digital and scanned PDF through pdf.js: text runs placed in the upright frame (`/Rotate`
 * and turned text), ruled tables from the operator list, reading order by XY-cut, headings by
 * font size, AcroForm fields as key_value blocks; pages without a text layer are rendered and
 * OCRed.
 */
export async function parsePdf(bytes: Uint8Array, context: FormatContext): Promise<DraftDocument> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    // pdf.js takes ownership of (and detaches) the buffer it is given.
    data: new Uint8Array(bytes),
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: PDFJS_ASSETS.standardFontDataUrl,
    cMapUrl: PDFJS_ASSETS.cMapUrl,
    cMapPacked: true,
  });
  const onAbort = () => void task.destroy();
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    let doc: Awaited<typeof task.promise>;
    try {
      doc = await task.promise;
    } catch (error) {
      context.signal.throwIfAborted();
      throw pdfError(error);
    }
    if (doc.numPages === 0) {
      throw new ParseFailure(
        'CORRUPT_FILE',
        'The PDF has no pages. Re-export it from the source application.',
      );
    }
    const selected = selectPages(doc.numPages, context);
    if (selected.length === 0) {
      throw new ParseFailure(
        'INVALID_CONFIG_OPTIONS',
        `advancedOptions.pageRanges selects no page of this ${doc.numPages}-page PDF.`,
      );
    }
    if (selected.length > context.limits.maxPages) {
      throw new ParseFailure(
        'FILE_SIZE_TOO_LARGE',
        `The selection has ${selected.length} pages; the limit is ${context.limits.maxPages}. Narrow advancedOptions.pageRanges or raise limits.maxPages.`,
      );
    }
    // Only documents with an AcroForm have fields; skipping getAnnotations elsewhere saves time.
    const hasForm =
      context.config.keyValue && (await doc.getFieldObjects().catch(() => null)) !== null;
    const scans: PageScan[] = [];
    for (const number of selected) {
      context.signal.throwIfAborted();
      try {
        scans.push(await scanPage(doc, number, context, hasForm));
      } catch (error) {
        context.signal.throwIfAborted();
        if (error instanceof ParseFailure) throw error;
        throw pdfError(error);
      }
    }

    const sizes = new Map<number, number>();
    for (const scan of scans) {
      for (const run of scan.runs) {
        const size = Math.round(run.size * 2) / 2;
        sizes.set(size, (sizes.get(size) ?? 0) + run.text.length);
      }
    }
    const sizeList = [...sizes].map(([size, chars]) => ({ size, chars }));
    const body = bodySize(sizeList);
    const headingSizes = headingSizesOf(sizeList, body);

    // Scanned pages are rendered and OCRed concurrently, as many as the OCR pool has workers.
    const scanned = scans.filter((scan) => scan.scanned);
    const ocrResults = new Map<
      number,
      Awaited<ReturnType<typeof import('./pdf/ocr-pdf-page.ts')['ocrPdfPage']>>
    >();
    if (scanned.length > 0) {
      const [{ ocrPdfPage }, { ocrPoolSize }] = await Promise.all([
        import('./pdf/ocr-pdf-page.ts'),
        import('../ocr/ocr-pool.ts'),
      ]);
      await mapLimit(scanned, ocrPoolSize(), async (scan) => {
        const result = await ocrPdfPage(doc, scan.number, context, {
          width: scan.originalWidth,
          height: scan.originalHeight,
        });
        ocrResults.set(scan.number, result);
      });
    }
    const units: DraftUnit[] = [];
    const pages: OutputPageMetadata[] = [];
    let ocrPageCount = 0;
    for (const scan of scans) {
      let blocks: DraftBlock[];
      let spatial: string;
      let width = scan.width;
      let height = scan.height;
      let rotation = scan.rotation;
      const ocr = ocrResults.get(scan.number);
      if (ocr) {
        blocks = ocr.blocks;
        spatial = ocr.spatial;
        width = ocr.width;
        height = ocr.height;
        // The page's /Rotate plus what OSD found on the rendered (already /Rotate-d) image.
        rotation =
          ocr.page.rotationApplied === null
            ? null
            : (ocr.page.rotationApplied + (scan.rotation ?? 0)) % 360;
        ocrPageCount++;
      } else {
        const figures: DraftBlock[] = context.config.figures
          ? scan.images
              .filter(
                (box) =>
                  (box.right - box.left) * (box.bottom - box.top) >
                  scan.width * scan.height * 0.005,
              )
              .map((box) => ({
                type: 'figure',
                content: '',
                markdown: '',
                details: { type: 'figure_details', figureType: 'image' },
                boundingBox: clampBox(box, scan.width, scan.height),
              }))
          : [];
        const laid = layoutPage(scan.runs, scan.tables, headingSizes, body, figures);
        blocks = [...laid.blocks, ...scan.fields];
        // Laying out fixed-width text costs ~2 ms a page: only for the spatial target.
        spatial = context.config.target === 'spatial' ? spatialText(laid.lines, scan.width) : '';
      }
      units.push({
        pageNumber: scan.number,
        page: { number: scan.number, width: round(width), height: round(height) },
        blocks: blocks.map((block) => clampBlock(block, width, height)),
        spatial,
      });
      pages.push({
        number: scan.number,
        rotationApplied: rotation,
        originalPageWidth: round(scan.originalWidth),
        originalPageHeight: round(scan.originalHeight),
        dpi: 72,
      });
    }
    return { units, pages, pageCount: scans.length, ocrPageCount };
  } finally {
    context.signal.removeEventListener('abort', onAbort);
    await task.destroy().catch(() => undefined);
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function clampBlock(block: DraftBlock, width: number, height: number): DraftBlock {
  if (!block.boundingBox) return block;
  return {
    ...block,
    boundingBox: clampBox(block.boundingBox, width, height),
    ...(block.children
      ? { children: block.children.map((c) => clampBlock(c, width, height)) }
      : {}),
  };
}

type PdfDocument = Awaited<
  ReturnType<Awaited<ReturnType<typeof loadPdfJs>>['getDocument']>['promise']
>;

async function scanPage(
  doc: PdfDocument,
  number: number,
  context: FormatContext,
  hasForm: boolean,
): Promise<PageScan> {
  const page = await doc.getPage(number);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const [content, operators] = await Promise.all([
      page.getTextContent({ includeMarkedContent: false, disableNormalization: false }),
      // Form widgets come from getAnnotations; their appearance streams would look like tables.
      page.getOperatorList({ intent: 'display', annotationMode: 0 }),
    ]);
    const items = content.items.filter(
      (item): item is PdfTextItem & (typeof content.items)[number] => 'str' in item,
    );
    const boldFonts = new Set<string>();
    for (const item of items) {
      if (boldFonts.has(item.fontName) || !page.commonObjs.has(item.fontName)) continue;
      const font = page.commonObjs.get(item.fontName) as
        | { name?: string; bold?: boolean }
        | undefined;
      if (font?.bold || /bold|black|heavy/i.test(font?.name ?? '')) boldFonts.add(item.fontName);
    }
    const vt = viewport.transform as unknown as Matrix;
    const { runs, frame } = placeTextRuns(
      items,
      vt,
      viewport.width,
      viewport.height,
      boldFonts,
      context.config.pageRotationEnabled,
    );
    const graphics = readPageGraphics(operators, (x, y) => toUpright(frame, vt, x, y));
    const tables = context.config.tables ? findRuledTables(graphics.segments) : [];
    const visible = runs.reduce((sum, run) => sum + run.text.trim().length, 0);
    const imageArea = graphics.images.reduce(
      (sum, box) => sum + Math.max(0, box.right - box.left) * Math.max(0, box.bottom - box.top),
      0,
    );
    const scanned = visible < SCAN_TEXT_THRESHOLD && imageArea > frame.width * frame.height * 0.3;
    const fields = hasForm ? await formFields(page, frame, vt) : [];
    const [, , viewWidth, viewHeight] = page.view;
    const [x0, y0] = page.view;
    return {
      number,
      width: frame.width,
      height: frame.height,
      originalWidth: (viewWidth ?? 0) - (x0 ?? 0),
      originalHeight: (viewHeight ?? 0) - (y0 ?? 0),
      rotation: context.config.pageRotationEnabled
        ? (page.rotate + frame.extraRotation) % 360
        : null,
      runs,
      tables,
      images: graphics.images,
      fields,
      scanned,
    };
  } finally {
    page.cleanup();
  }
}

interface WidgetAnnotation {
  subtype?: string;
  fieldName?: string;
  fieldValue?: unknown;
  fieldType?: string;
  checkBox?: boolean;
  exportValue?: string;
  rect?: number[];
}

async function formFields(
  page: Awaited<ReturnType<PdfDocument['getPage']>>,
  frame: ReturnType<typeof placeTextRuns>['frame'],
  vt: Matrix,
): Promise<DraftBlock[]> {
  const annotations = (await page.getAnnotations({ intent: 'display' })) as WidgetAnnotation[];
  const blocks: DraftBlock[] = [];
  for (const annotation of annotations) {
    if (annotation.subtype !== 'Widget' || !annotation.fieldName) continue;
    const raw = annotation.fieldValue;
    let value = Array.isArray(raw)
      ? raw.join(', ')
      : raw === undefined || raw === null
        ? ''
        : String(raw);
    if (annotation.checkBox) value = value !== '' && value !== 'Off' ? 'checked' : 'unchecked';
    const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = annotation.rect ?? [];
    const a = toUpright(frame, vt, x1, y1);
    const b = toUpright(frame, vt, x2, y2);
    const box = {
      left: Math.min(a[0], b[0]),
      right: Math.max(a[0], b[0]),
      top: Math.min(a[1], b[1]),
      bottom: Math.max(a[1], b[1]),
    };
    const content = `${annotation.fieldName}: ${value}`;
    blocks.push({
      type: 'key_value',
      content,
      markdown: `**${annotation.fieldName}:** ${value}`,
      details: { type: 'key_value_details', key: annotation.fieldName, value },
      boundingBox: box,
    });
  }
  return blocks;
}
