import type { FileType } from '@docflow/engine';
import { type ParseLimits } from './format-context.ts';
/**
 * Counts what a compressed document really expands to (every ZIP entry of a DOCX or XLSX, every
 * FlateDecode stream of a PDF) before a parser reads it, and throws a FILE_SIZE_TOO_LARGE
 * `ParseFailure` once the count passes `expansionLimit(limits, size)`, or CORRUPT_FILE for a ZIP
 * whose headers lie. Other types expand nothing (images are bounded by their pixel count).
 */
export declare function measureExpansion(type: FileType, bytes: Uint8Array, limits: ParseLimits, signal: AbortSignal): Promise<void>;
//# sourceMappingURL=measure-expansion.d.ts.map