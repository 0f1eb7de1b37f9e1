import { expansionLimit } from './format-context.js';
import { measurePdfStreams } from './formats/pdf/measure-streams.js';
import { measureZip } from './formats/zip-measure.js';
function mebibytes(bytes) {
    return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
/**
 * Counts what a compressed document really expands to (every ZIP entry of a DOCX or XLSX, every
 * FlateDecode stream of a PDF) before a parser reads it, and throws a FILE_SIZE_TOO_LARGE
 * `ParseFailure` once the count passes `expansionLimit(limits, size)`, or CORRUPT_FILE for a ZIP
 * whose headers lie. Other types expand nothing (images are bounded by their pixel count).
 */
export async function measureExpansion(type, bytes, limits, signal) {
    const limit = expansionLimit(limits, bytes.length);
    const describe = (what) => (_, seen) => `The ${what} expands to more than ${mebibytes(limit)} (${mebibytes(seen)} counted when reading stopped) from a file of ${mebibytes(bytes.length)}: a decompression bomb, or a document beyond limits.expansionRatio (${limits.expansionRatio}) × its size + limits.expansionAllowanceBytes.`;
    if (type === 'DOCX' || type === 'EXCEL') {
        await measureZip(bytes, limit, signal, describe(`${type} container`));
    }
    else if (type === 'PDF') {
        await measurePdfStreams(bytes, limit, signal, describe('PDF (its compressed streams)'), limits.maxUncompressedBytes);
    }
}
//# sourceMappingURL=measure-expansion.js.map