import type { FileType } from '@docflow/engine';
import { expansionLimit, type ParseLimits } from './format-context.ts';
import { measurePdfStreams } from './formats/pdf/measure-streams.ts';
import { measureZip } from './formats/zip-measure.ts';

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * Counts what a compressed document really expands to (every ZIP entry of a DOCX or XLSX, every
 * FlateDecode stream of a PDF) before a parser reads it, and throws a FILE_SIZE_TOO_LARGE
 * `ParseFailure` once the count passes `expansionLimit(limits, size)`, or CORRUPT_FILE for a ZIP
 * whose headers lie. Other types expand nothing (images are bounded by their pixel count).
 */
export async function measureExpansion(
  type: FileType,
  bytes: Uint8Array,
  limits: ParseLimits,
  signal: AbortSignal,
): Promise<void> {
  const limit = expansionLimit(limits, bytes.length);
  const describe = (what: string) => (_: number, seen: number) =>
    `The ${what} expands to more than ${mebibytes(limit)} (${mebibytes(seen)} counted when reading stopped) from a file of ${mebibytes(bytes.length)}: a decompression bomb, or a document beyond limits.expansionRatio (${limits.expansionRatio}) × its size + limits.expansionAllowanceBytes.`;
  if (type === 'DOCX' || type === 'EXCEL') {
    await measureZip(bytes, limit, signal, describe(`${type} container`));
  } else if (type === 'PDF') {
    await measurePdfStreams(
      bytes,
      limit,
      signal,
      describe('PDF (its compressed streams)'),
      limits.maxUncompressedBytes,
    );
  }
}
