import type { PageProgress } from './page-progress.ts';
import type { ResolvedParseConfig } from './resolve-parse-config.ts';

/** Resource limits of one parse; hostile input fails with a reason instead of exhausting them. */
export interface ParseLimits {
  /** Largest accepted file, bytes. Default 100 MiB. */
  readonly maxFileBytes: number;
  /** Largest total uncompressed size of a DOCX/XLSX container, bytes. Default 1 GiB. */
  readonly maxUncompressedBytes: number;
  /**
   * What a file of N bytes may expand to while it is decompressed (ZIP entries of DOCX/XLSX,
   * FlateDecode streams of a PDF): `expansionRatio × N + expansionAllowanceBytes`, counted while
   * inflating, whatever the headers say. Real documents expand 2 to 24 times (Word and
   * LibreOffice DOCX 4 to 14, LibreOffice XLSX 10 to 23, the most repetitive sheet measured);
   * default 100, so that only a decompression bomb reaches it. PDFs measured (198: Debian's
   * manuals, LaTeX, LibreOffice, our corpora) expand 1.5 times (median) to 5 (text). A PDF's
   * image XObjects are not counted here: a scan's FlateDecode page images expand a hundred to a
   * thousand times. Each image is held to what its own width, height and bits per component
   * decode to, and all of them together to `maxUncompressedBytes`.
   */
  readonly expansionRatio: number;
  /** Added to the expansion limit, for the fixed parts of small files (styles, fonts). Default 16 MiB. */
  readonly expansionAllowanceBytes: number;
  /** Largest number of pages parsed in one run (after page ranges). Default 2,000. */
  readonly maxPages: number;
  /** Largest number of table cells (CSV, XLSX, HTML tables). Default 1,000,000: a parse output's JSON takes about 320 characters a cell, and V8's longest string is about 512 million. */
  readonly maxCells: number;
  /** Wall-clock budget, ms. Default 10 minutes. */
  readonly timeoutMs: number;
  /**
   * Heap of the reader process that reads DOCX, XLSX, HTML, XML and CSV (their parsers hold the
   * whole document in memory), MiB: a document that needs more ends that process, not the
   * engine's, as FILE_SIZE_TOO_LARGE. 0 reads them in the calling thread. Default 2,048.
   */
  readonly workerHeapMb: number;
}

/**
 * Largest image decoded, pixels (100 megapixels: a 300-DPI scan of 0.84 × 1.1 m): an image file
 * whose header says more is refused before decoding, and a PDF image XObject above it is not
 * decoded (pdf.js's `maxImageSize`).
 */
export const MAX_IMAGE_PIXELS = 100_000_000;

/** Default {@link ParseLimits}. */
export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  maxFileBytes: 100 * 1024 * 1024,
  maxUncompressedBytes: 1024 * 1024 * 1024,
  expansionRatio: 100,
  expansionAllowanceBytes: 16 * 1024 * 1024,
  maxPages: 2000,
  maxCells: 1_000_000,
  timeoutMs: 10 * 60 * 1000,
  workerHeapMb: 2048,
};

/** What a file of `fileBytes` may expand to under `limits` (see {@link ParseLimits.expansionRatio}). */
export function expansionLimit(limits: ParseLimits, fileBytes: number): number {
  return Math.min(
    limits.maxUncompressedBytes,
    limits.expansionRatio * fileBytes + limits.expansionAllowanceBytes,
  );
}

/**
 * Whether a long PDF (60 pages or more) is read by further reader processes besides the one
 * that opened it: `'auto'` when a core is idle by the load average of the last minute (decision
 * 0012: on a busy machine another reader only adds contention), `'always'` whatever the load,
 * `'never'`. Short documents are read by one reader whatever this says (decision 0030).
 */
export type PdfWorkers = 'auto' | 'always' | 'never';

/**
 * What a format parser receives from `parseDocument`: the resolved config, the limits, the
 * signal (the caller's and the timeout), and the detected type and name.
 */
export interface FormatContext {
  readonly config: ResolvedParseConfig;
  readonly limits: ParseLimits;
  readonly signal: AbortSignal;
  readonly mimeType: string;
  readonly fileName: string;
  /** Where page-by-page formats report their pages (absent: nobody listens). */
  readonly progress?: PageProgress;
  /** See {@link PdfWorkers}. */
  readonly pdfWorkers: PdfWorkers;
  /**
   * The check of what the document expands to (measure-expansion.ts), when it is still under
   * way: a parser may start what reads none of the document's content meanwhile (a PDF's reader
   * process opens it), and reads nothing more before this settles. Absent: checked already.
   */
  readonly expansion?: Promise<void>;
}
