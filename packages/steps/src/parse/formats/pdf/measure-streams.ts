import { inflatedSize } from '../../inflated-size.ts';
import { ParseFailure } from '../../parse-failure.ts';

const STREAM = Buffer.from('stream');

/** True when two bytes open a zlib stream (FlateDecode's format): deflate, a valid check. */
function zlibHeader(cmf: number | undefined, flg: number | undefined): boolean {
  return (
    cmf !== undefined && flg !== undefined && (cmf & 0x0f) === 8 && (cmf * 256 + flg) % 31 === 0
  );
}

/** What {@link measurePdfStreams} found. */
export interface PdfStreamsMeasure {
  readonly streams: number;
  readonly inflatedBytes: number;
}

/**
 * Inflates every FlateDecode stream of a PDF (content streams, fonts, images, object and xref
 * streams: any `stream` whose data opens with a zlib header) to count what the file really
 * expands to, before pdf.js reads it, and stops as soon as the count passes `limit`: a
 * FILE_SIZE_TOO_LARGE {@link ParseFailure} then. Streams are found by their keyword, not through
 * the cross-reference table, so a damaged table hides none; encrypted streams (not zlib until
 * decrypted) are not counted.
 */
export async function measurePdfStreams(
  bytes: Uint8Array,
  limit: number,
  signal: AbortSignal,
  describeLimit: (limit: number, seen: number) => string,
): Promise<PdfStreamsMeasure> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let streams = 0;
  let at = buffer.indexOf(STREAM, 0);
  while (at !== -1) {
    signal.throwIfAborted();
    let start = at + STREAM.length;
    // `endstream` closes a stream; `stream` opens one when an end of line follows it.
    const opens = !(at >= 3 && buffer.toString('latin1', at - 3, at) === 'end');
    if (opens && buffer[start] === 0x0d) start++;
    if (opens && buffer[start] === 0x0a) {
      start++;
      if (zlibHeader(buffer[start], buffer[start + 1])) {
        streams++;
        // A damaged stream is pdf.js's to judge (it reads what inflates): it counts for that.
        total += await inflatedSize(bytes.subarray(start), 'zlib', limit - total, signal).catch(
          (error: unknown) => {
            signal.throwIfAborted();
            return (error as { inflated?: number }).inflated ?? 0;
          },
        );
        if (total > limit) {
          throw new ParseFailure('FILE_SIZE_TOO_LARGE', describeLimit(limit, total));
        }
      }
    }
    at = buffer.indexOf(STREAM, start);
  }
  return { streams, inflatedBytes: total };
}
