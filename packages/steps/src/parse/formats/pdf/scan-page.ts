import type { DraftBlock } from '../../draft-document.ts';
import { MAX_IMAGE_PIXELS } from '../../format-context.ts';
import { ParseFailure } from '../../parse-failure.ts';
import type { BoundingBox } from '../../parse-output.ts';
import type { ResolvedParseConfig } from '../../resolve-parse-config.ts';
import type { Matrix, UprightFrame } from './geometry.ts';
import { readPageGraphics } from './page-graphics.ts';
import { loadPdfJs, PDFJS_ASSETS, type PdfDocument } from './pdfjs.ts';
import { findRuledTables } from './ruled-tables.ts';
import { type PdfTextItem, placeTextRuns, type TextRun, toUpright } from './text-runs.ts';

/**
 * What a page's text tells before layout: `scarce`, so little visible text that the page may be
 * a scan; `complex`, more than prose: scarce, or text runs starting at three or more x positions
 * that each begin three or more runs (table columns).
 */
function textShape(items: readonly PdfTextItem[]): { scarce: boolean; complex: boolean } {
  let visible = 0;
  const starts = new Map<number, number>();
  for (const item of items) {
    const text = item.str.trim();
    if (text === '') continue;
    visible += text.length;
    const x = Math.round((item.transform[4] ?? 0) / 3);
    starts.set(x, (starts.get(x) ?? 0) + 1);
  }
  const scarce = visible < SCAN_TEXT_THRESHOLD;
  let columns = 0;
  for (const count of starts.values()) if (count >= 3) columns++;
  return { scarce, complex: scarce || columns >= 3 };
}

export type { PdfDocument };

/**
 * Starts loading a PDF with offline settings (local CMaps, no eval, quiet). No standard font
 * programs: text needs their metrics and encodings, which pdf.js has built in, not their glyph
 * outlines, which only rendering uses (a scanned page, rendered for OCR, has almost no text);
 * parsing them cost a twelfth of reading a report set in Helvetica. Images above
 * {@link MAX_IMAGE_PIXELS} are not decoded (their pixels would live outside any heap limit).
 */
export async function openPdf(bytes: Uint8Array) {
  const { pdfjs, worker } = await loadPdfJs();
  return pdfjs.getDocument({
    worker,
    // pdf.js takes ownership of (and detaches) the buffer it is given.
    data: new Uint8Array(bytes),
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    cMapUrl: PDFJS_ASSETS.cMapUrl,
    cMapPacked: true,
    maxImageSize: MAX_IMAGE_PIXELS,
  });
}

/** True when the document has AcroForm fields (only then are annotations read per page). */
export async function hasFormFields(doc: PdfDocument): Promise<boolean> {
  return (await doc.getFieldObjects().catch(() => null)) !== null;
}

/** What one page yields before layout: plain data, so reader processes can send it. */
export interface PageScan {
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
  /** Aligned columns or almost no text: tables or a scan likely (parse_auto bills it fully). */
  complex: boolean;
}

/** Fewer visible characters than this on a page mostly covered by an image: a scan. */
const SCAN_TEXT_THRESHOLD = 20;

/** Share of the page that images must cover for a page with little text to be a scan. */
const SCAN_IMAGE_COVER = 0.3;

/** A page with almost no text, mostly covered by images: a scan, to render and OCR. */
export function looksScanned(
  runs: readonly TextRun[],
  images: readonly BoundingBox[],
  frame: Pick<UprightFrame, 'width' | 'height'>,
): boolean {
  const visible = runs.reduce((sum, run) => sum + run.text.trim().length, 0);
  const imageArea = images.reduce(
    (sum, box) => sum + Math.max(0, box.right - box.left) * Math.max(0, box.bottom - box.top),
    0,
  );
  return visible < SCAN_TEXT_THRESHOLD && imageArea > frame.width * frame.height * SCAN_IMAGE_COVER;
}

/** Maps a pdf.js error to a failure. */
export function pdfError(error: unknown): ParseFailure {
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

/** Reads one page: text runs in the upright frame, rules, tables, images, form fields. */
/** An open pdf.js page. */
export type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

/**
 * A page's text items and what they tell about it: `scarce` (so little text that the page may be
 * a scan), `complex` (aligned columns: tables likely) and whether to read its graphics at all. The
 * graphics (rules, images) cost as much as the text: parse_light skips them unless the page may
 * be a scan, parse_auto reads them only where the text looks complex.
 */
export async function readPageText(page: PdfPage, config: ResolvedParseConfig): Promise<PageText> {
  const content = await page.getTextContent({
    includeMarkedContent: false,
    disableNormalization: false,
  });
  const items = content.items.filter(
    (item): item is PdfTextItem & (typeof content.items)[number] => 'str' in item,
  );
  const { scarce, complex } = textShape(items);
  const withGraphics =
    config.engine === 'parse_performance' || (config.engine === 'parse_auto' ? complex : scarce);
  return { items, ...fontStyles(content.styles), complex, scarce, withGraphics };
}

/** A page's text items and what they tell about it (see {@link readPageText}). */
export interface PageText {
  readonly items: PdfTextItem[];
  /** The fonts (pdf.js ids) of the items that are bold. */
  readonly bold: ReadonlySet<string>;
  /** The fonts (pdf.js ids) of fixed pitch: code listings, whose lines never wrap. */
  readonly mono: ReadonlySet<string>;
  readonly complex: boolean;
  readonly scarce: boolean;
  readonly withGraphics: boolean;
}

/**
 * Fixed-pitch font names. Not pdf.js's `monospace` fallback family: pdf.js also gives it to any
 * font whose glyphs all have one width (a subset of digits, a test font).
 */
const MONO = /mono|courier|cmtt|lmtt|typewriter|consol|menlo|monaco|inconsolata|sourcecode/i;

/**
 * The bold and the fixed-pitch fonts of a page's text content: bold by flags or names (`CMBX10`,
 * `Helvetica-Bold`, `Arial Black`), fixed pitch by names (`LiberationMono`, `Courier`, `CMTT10`).
 * The styles carry both (`fontName`, `bold`: a docflow patch to pdf.js).
 */
function fontStyles(styles: Record<string, unknown>): Pick<PageText, 'bold' | 'mono'> {
  const bold = new Set<string>();
  const mono = new Set<string>();
  for (const [id, style] of Object.entries(styles)) {
    const { fontName, bold: flagged } = style as { fontName?: string; bold?: boolean };
    if (flagged || /bold|black|heavy|semibold|demi|cmbx|-bx/i.test(fontName ?? '')) bold.add(id);
    if (MONO.test(fontName ?? '')) mono.add(id);
  }
  return { bold, mono };
}

/** A page's text placed in the upright frame, and its geometry as a {@link PageScan} gives it. */
export interface PlacedPage {
  readonly runs: TextRun[];
  readonly frame: UprightFrame;
  /** pdf.js's viewport transform of the page at scale 1. */
  readonly viewportTransform: Matrix;
  /** From user space to the upright frame (points, top-left origin). */
  upright(x: number, y: number): [number, number];
  readonly geometry: Pick<
    PageScan,
    'width' | 'height' | 'originalWidth' | 'originalHeight' | 'rotation'
  >;
}

/**
 * Places a page's text items in the upright frame (`/Rotate` and, when enabled, turned text),
 * with bold from the text's fonts. Both page readers start from it.
 */
export function placePage(
  page: PdfPage,
  { items, bold, mono }: Pick<PageText, 'items' | 'bold' | 'mono'>,
  config: ResolvedParseConfig,
): PlacedPage {
  const viewport = page.getViewport({ scale: 1 });
  const vt = viewport.transform as unknown as Matrix;
  const { runs, frame } = placeTextRuns(
    items,
    vt,
    viewport.width,
    viewport.height,
    { bold, mono },
    config.pageRotationEnabled,
  );
  return {
    runs,
    frame,
    viewportTransform: vt,
    upright: (x, y) => toUpright(frame, vt, x, y),
    // The original page is the page as a viewer shows it (its /Rotate applied); the rotation is
    // what docflow turned that page by to make its text read upright (decision 0012).
    geometry: {
      width: frame.width,
      height: frame.height,
      originalWidth: viewport.width,
      originalHeight: viewport.height,
      rotation: config.pageRotationEnabled ? frame.extraRotation : null,
    },
  };
}

export async function scanPage(
  doc: PdfDocument,
  number: number,
  config: ResolvedParseConfig,
  hasForm: boolean,
): Promise<PageScan> {
  const page = await doc.getPage(number);
  try {
    return await scanOpenPage(page, await readPageText(page, config), number, config, hasForm);
  } finally {
    page.cleanup();
  }
}

/** {@link scanPage} on a page already open, whose text is read (the caller cleans the page up). */
export async function scanOpenPage(
  page: PdfPage,
  text: PageText,
  number: number,
  config: ResolvedParseConfig,
  hasForm: boolean,
): Promise<PageScan> {
  const { complex, withGraphics } = text;
  const operators = withGraphics
    ? // Form widgets come from getAnnotations; their appearance streams would look like tables.
      await page.getOperatorList({ intent: 'display', annotationMode: 0 })
    : { fnArray: [], argsArray: [] };
  const { runs, frame, viewportTransform: vt, upright, geometry } = placePage(page, text, config);
  const graphics = readPageGraphics(operators, upright);
  const tables = config.tables ? findRuledTables(graphics.segments) : [];
  const scanned = looksScanned(runs, graphics.images, frame);
  const fields = hasForm ? await formFields(page, frame, vt) : [];
  return {
    number,
    ...geometry,
    runs,
    tables,
    images: graphics.images,
    fields,
    scanned,
    complex,
  };
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
  page: PdfPage,
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
