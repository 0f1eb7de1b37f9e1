import type { FileType } from '@docflow/engine';
import type { DraftDocument } from './draft-document.ts';
import type { FormatContext, ParseLimits } from './format-context.ts';
import type { ParseFailureReason } from './parse-output.ts';
import type { ResolvedParseConfig } from './resolve-parse-config.ts';
/** One document for a format worker. */
export interface FormatJob {
    readonly type: FileType;
    readonly bytes: Uint8Array;
    readonly config: ResolvedParseConfig;
    readonly limits: ParseLimits;
    readonly mimeType: string;
    readonly fileName: string;
}
/** What a format worker answers. */
export type FormatReply = {
    readonly ok: true;
    readonly draft: DraftDocument;
} | {
    readonly ok: false;
    readonly reason?: ParseFailureReason;
    readonly name: string;
    readonly message: string;
};
/**
 * Reads a document with its format's parser, in a worker thread whose heap is bounded by
 * `limits.workerHeapMb` for the formats that build the whole document in memory: a document
 * that needs more ends the worker, not the process, and fails with FILE_SIZE_TOO_LARGE; a
 * worker that dies otherwise is CORRUPT_FILE. Other formats (and a runtime without workers, or
 * `workerHeapMb: 0`) are read in this thread. An abort terminates the worker at once.
 */
export declare function runFormatContained(type: FileType, bytes: Uint8Array, context: FormatContext): Promise<DraftDocument>;
//# sourceMappingURL=contained-format.d.ts.map