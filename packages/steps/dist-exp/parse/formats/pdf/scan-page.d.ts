import type { DraftBlock } from '../../draft-document.ts';
import { ParseFailure } from '../../parse-failure.ts';
import type { BoundingBox } from '../../parse-output.ts';
import type { ResolvedParseConfig } from '../../resolve-parse-config.ts';
import type { Matrix, UprightFrame } from './geometry.ts';
import { type PdfDocument } from './pdfjs.ts';
import { findRuledTables } from './ruled-tables.ts';
import { type PdfTextItem, type TextRun } from './text-runs.ts';
export type { PdfDocument };
/**
 * Starts loading a PDF with offline settings (local CMaps, no eval, quiet). No standard font
 * programs: text needs their metrics and encodings, which pdf.js has built in, not their glyph
 * outlines, which only rendering uses (a scanned page, rendered for OCR, has almost no text);
 * parsing them cost a twelfth of reading a report set in Helvetica.
 */
export declare function openPdf(bytes: Uint8Array): Promise<import("pdfjs-dist/types/src/display/api").PDFDocumentLoadingTask>;
/** True when the document has AcroForm fields (only then are annotations read per page). */
export declare function hasFormFields(doc: PdfDocument): Promise<boolean>;
/** What one page yields before layout: plain data, so worker threads can send it. */
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
/** A page with almost no text, mostly covered by images: a scan, to render and OCR. */
export declare function looksScanned(runs: readonly TextRun[], images: readonly BoundingBox[], frame: Pick<UprightFrame, 'width' | 'height'>): boolean;
/** Maps a pdf.js error to a failure. */
export declare function pdfError(error: unknown): ParseFailure;
/** Reads one page: text runs in the upright frame, rules, tables, images, form fields. */
/** An open pdf.js page. */
export type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;
/**
 * A page's text items and what they tell about it: `scarce` (so little text that the page may be
 * a scan), `complex` (aligned columns: tables likely) and whether to read its graphics at all. The
 * graphics (rules, images) cost as much as the text: parse_light skips them unless the page may
 * be a scan, parse_auto reads them only where the text looks complex.
 */
export declare function readPageText(page: PdfPage, config: ResolvedParseConfig): Promise<PageText>;
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
/** A page's text placed in the upright frame, and its geometry as a {@link PageScan} gives it. */
export interface PlacedPage {
    readonly runs: TextRun[];
    readonly frame: UprightFrame;
    /** pdf.js's viewport transform of the page at scale 1. */
    readonly viewportTransform: Matrix;
    /** From user space to the upright frame (points, top-left origin). */
    upright(x: number, y: number): [number, number];
    readonly geometry: Pick<PageScan, 'width' | 'height' | 'originalWidth' | 'originalHeight' | 'rotation'>;
}
/**
 * Places a page's text items in the upright frame (`/Rotate` and, when enabled, turned text),
 * with bold from the text's fonts. Both page readers start from it.
 */
export declare function placePage(page: PdfPage, { items, bold, mono }: Pick<PageText, 'items' | 'bold' | 'mono'>, config: ResolvedParseConfig): PlacedPage;
export declare function scanPage(doc: PdfDocument, number: number, config: ResolvedParseConfig, hasForm: boolean): Promise<PageScan>;
//# sourceMappingURL=scan-page.d.ts.map