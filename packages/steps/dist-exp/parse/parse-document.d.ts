import { type ParseLimits, type PdfWorkers } from './format-context.ts';
import { type ParseProgress } from './page-progress.ts';
import type { ParseConfig, ParseFailureReason, ParseRunMetrics, ParseRunOutput } from './parse-output.ts';
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
     * Whether a long PDF is read on worker threads too: `'auto'` (default) when the load average
     * leaves a core idle, so the same document may be read with or without them as the machine's
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
    readonly usage: {
        readonly credits: number;
        readonly pages: number;
    };
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
/**
 * Parses a document into the interface's ParseRunOutput. The type is detected from the content.
 * Every document problem (corrupt, encrypted, unsupported, too large, bad config) comes back as
 * `{ ok: false, failureReason, failureMessage }`; the promise rejects only when `signal` aborts.
 *
 * @example
 * const result = await parseDocument(bytes, { fileName: 'invoice.pdf' });
 * if (result.ok) console.log(result.output.chunks[0]?.content);
 */
export declare function parseDocument(bytes: Uint8Array, options?: ParseDocumentOptions): Promise<ParseDocumentResult>;
//# sourceMappingURL=parse-document.d.ts.map