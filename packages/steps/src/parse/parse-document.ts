import { detectFileType } from '@docflow/engine';
import { isMissingPackageError } from '../optional/optional-package.ts';
import { buildChunks } from './build-chunks.ts';
import { runFormatContained } from './contained-format.ts';
import type { DraftDocument } from './draft-document.ts';
import {
  DEFAULT_PARSE_LIMITS,
  type FormatContext,
  type ParseLimits,
  type PdfWorkers,
} from './format-context.ts';
import { isEncryptedOfficePackage } from './formats/zip-inspect.ts';
import { measureExpansion } from './measure-expansion.ts';
import { type ParseProgress, pageProgress } from './page-progress.ts';
import { isParseFailure } from './parse-failure.ts';
import type {
  ParseConfig,
  ParseFailureReason,
  ParseRunMetrics,
  ParseRunOutput,
} from './parse-output.ts';
import { type ResolvedParseConfig, resolveParseConfig } from './resolve-parse-config.ts';

/** Options of {@link parseDocument}. */
export interface ParseDocumentOptions {
  /** Used only as a tie-break between text types and in messages. */
  readonly fileName?: string;
  readonly config?: ParseConfig;
  /** Aborting rejects the promise with the signal's reason (cancellation is not a failure). */
  readonly signal?: AbortSignal;
  readonly limits?: Partial<ParseLimits>;
  /**
   * Called as pages of a PDF or a multi-page image become final (read and laid out, or OCRed),
   * first with `pagesDone: 0` once the page count is known; for a progress display. Other
   * formats, parsed in one go, do not call it.
   */
  readonly onProgress?: (progress: ParseProgress) => void;
  /**
   * Whether a long PDF is read by further reader processes too: `'auto'` (default) when the load
   * average leaves a core idle, so the same document may be read with or without them as the machine's
   * load changes (the output is the same); `'always'` or `'never'` to decide it here.
   */
  readonly pdfWorkers?: PdfWorkers;
}

/** A successful parse. */
export interface ParseDocumentSuccess {
  readonly ok: true;
  readonly output: ParseRunOutput;
  /** The config with defaults applied (the interface's `parseRun.config`). */
  readonly config: ParseConfig;
  readonly usage: { readonly credits: number; readonly pages: number };
  readonly metrics: ParseRunMetrics;
}

/** A document that could not be parsed, as a value. */
export interface ParseDocumentFailure {
  readonly ok: false;
  readonly failureReason: ParseFailureReason;
  readonly failureMessage: string;
}

/** The outcome of {@link parseDocument}. */
export type ParseDocumentResult = ParseDocumentSuccess | ParseDocumentFailure;

const PDF_WORKERS_VALUES: readonly unknown[] = ['auto', 'always', 'never'] satisfies PdfWorkers[];

function fail(reason: ParseFailureReason, message: string): ParseDocumentFailure {
  return { ok: false, failureReason: reason, failureMessage: message };
}

function timedOut(limits: ParseLimits): ParseDocumentFailure {
  return fail(
    'INTERNAL_ERROR',
    `Parsing did not finish within ${Math.round(limits.timeoutMs / 1000)} s; narrow advancedOptions.pageRanges or raise limits.timeoutMs.`,
  );
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${bytes} bytes`;
}

/**
 * Credits: parse_performance 1 per page, parse_light 0.5; parse_auto bills by complexity within
 * The interface's 0.5 to 2: simple pages 0.5, complex pages 1, OCRed pages 2.
 */
function credits(engine: ResolvedParseConfig['engine'], draft: DraftDocument): number {
  const pages = draft.pageCount;
  if (engine === 'parse_light') return pages * 0.5;
  if (engine === 'parse_performance') return pages;
  const ocr = draft.ocrPageCount ?? 0;
  const simple = draft.simplePageCount ?? 0;
  return simple * 0.5 + ocr * 2 + Math.max(0, pages - simple - ocr);
}

function unsupportedMessage(mimeType: string, name: string): string {
  const what = name === '' ? 'The file' : `'${name}'`;
  if (
    mimeType.includes('msword') ||
    mimeType.includes('opendocument') ||
    mimeType.includes('presentation') ||
    mimeType.includes('powerpoint') ||
    mimeType.includes('ms-excel')
  ) {
    return `${what} is ${mimeType}, which PARSE does not read directly. Convert it to PDF (a FILE_CONVERSION step, with LibreOffice installed) or save it as DOCX/XLSX, then parse again.`;
  }
  return `${what} has content type ${mimeType}, which PARSE does not support. Supported: PDF, images (PNG, JPEG, TIFF, WebP, GIF, BMP), DOCX, XLSX, CSV, TXT, HTML, XML.`;
}

/**
 * Parses a document into the interface's ParseRunOutput. The type is detected from the content.
 * Every document problem (corrupt, encrypted, unsupported, too large, bad config) comes back as
 * `{ ok: false, failureReason, failureMessage }`; the promise rejects only when `signal` aborts.
 *
 * @example
 * const result = await parseDocument(bytes, { fileName: 'invoice.pdf' });
 * if (result.ok) console.log(result.output.chunks[0]?.content);
 */
export async function parseDocument(
  bytes: Uint8Array,
  options: ParseDocumentOptions = {},
): Promise<ParseDocumentResult> {
  const started = performance.now();
  const limits: ParseLimits = { ...DEFAULT_PARSE_LIMITS, ...options.limits };
  const name = options.fileName ?? '';
  options.signal?.throwIfAborted();

  const resolved = resolveParseConfig(options.config);
  if (!resolved.ok) {
    return fail('INVALID_CONFIG_OPTIONS', `Invalid parse config: ${resolved.issues.join('; ')}`);
  }
  const config = resolved.config;
  const pdfWorkers = options.pdfWorkers ?? 'auto';
  if (!PDF_WORKERS_VALUES.includes(pdfWorkers)) {
    return fail(
      'INVALID_CONFIG_OPTIONS',
      `Invalid option pdfWorkers: ${JSON.stringify(pdfWorkers)}; use 'auto', 'always' or 'never'.`,
    );
  }
  if (bytes.length > limits.maxFileBytes) {
    return fail(
      'FILE_SIZE_TOO_LARGE',
      `The file is ${formatBytes(bytes.length)}; the limit is ${formatBytes(limits.maxFileBytes)}. Split the document or raise limits.maxFileBytes.`,
    );
  }
  const detected = detectFileType(bytes, name);
  if (detected.type === null) {
    if (isEncryptedOfficePackage(bytes)) {
      return fail(
        'PASSWORD_PROTECTED_FILE',
        'The file is a password-protected Office document. Remove the password (File > Info > Protect) and upload it again.',
      );
    }
    return fail('FILE_TYPE_NOT_SUPPORTED', unsupportedMessage(detected.mimeType, name));
  }

  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  // Headers may lie (ZIP64 or not) and honest data may expand a thousandfold: what the document
  // really inflates to is counted before any parser (which would trust the headers) reads it. A
  // PDF's reader process, its heap and streams bounded, opens the document meanwhile (its
  // cross-reference, page count and form): the check is off the critical path (decision 0041).
  const type = detected.type;
  const expansion = measureExpansion(type, bytes, limits, signal);
  expansion.catch(() => undefined);
  const context: FormatContext = {
    config,
    limits,
    signal,
    mimeType: detected.mimeType,
    fileName: name,
    pdfWorkers,
    ...(options.onProgress ? { progress: pageProgress(options.onProgress) } : {}),
    ...(type === 'PDF' ? { expansion } : {}),
  };
  const read = async () => {
    if (context.expansion === undefined) await expansion;
    return runFormatContained(type, bytes, context);
  };
  let draft: DraftDocument;
  // Libraries do not all settle their promises once destroyed: the race makes an abort or a
  // timeout end the parse at once, whatever the library is doing.
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    draft = await Promise.race([read(), aborted]);
  } catch (error) {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    options.signal?.throwIfAborted();
    if (timeout.aborted) return timedOut(limits);
    if (isParseFailure(error)) return fail(error.reason, error.message);
    // Every optional package serves OCR; the parsers name the feature, this is the net below them.
    if (isMissingPackageError(error)) return fail('OCR_ERROR', error.message);
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof RangeError) {
      // A limit of the runtime met by the document (a structure nested past the stack, a text
      // past V8's longest string, an allocation refused): the document's size, not a bug.
      return fail(
        'FILE_SIZE_TOO_LARGE',
        `The ${detected.type} file is beyond what can be read here (${message}): its structure nests too deeply or it expands too far.`,
      );
    }
    return fail(
      'INTERNAL_ERROR',
      `Parsing the ${detected.type} file failed unexpectedly: ${message}`,
    );
  }
  if (onAbort) signal.removeEventListener('abort', onAbort);
  options.signal?.throwIfAborted();

  let chunks: ParseRunOutput['chunks'];
  try {
    chunks = buildChunks(draft, config);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return fail('CHUNKING_ERROR', `Building chunks failed: ${message}`);
  }
  const output: ParseRunOutput = {
    chunks,
    metadata: {
      originalMimeType: detected.mimeType,
      finalMimeType: draft.finalMimeType ?? detected.mimeType,
      pages: draft.pages,
    },
  };
  const pages = draft.pageCount;
  return {
    ok: true,
    output,
    config: config.applied,
    usage: { credits: credits(config.engine, draft), pages },
    metrics: {
      processingTimeMs: Math.round(performance.now() - started),
      pageCount: pages,
      ocrPageCount: draft.ocrPageCount ?? 0,
    },
  };
}
