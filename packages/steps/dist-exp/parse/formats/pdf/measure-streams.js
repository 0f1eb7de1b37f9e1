import { inflatedSize } from '../../inflated-size.js';
import { ParseFailure } from '../../parse-failure.js';
const STREAM = Buffer.from('stream');
const OBJ = Buffer.from('obj');
/** How far before its `stream` keyword a stream's dictionary is looked for. */
const DICTIONARY_WINDOW = 4096;
/**
 * The most an image XObject whose dictionary precedes `at` can decode to, by its own `/Width`,
 * `/Height` and `/BitsPerComponent` (up to four components, a predictor byte per row); undefined
 * for any other stream, or an image whose dimensions are not written in its dictionary.
 */
function imageBytes(buffer, at) {
    const from = buffer.lastIndexOf(OBJ, at);
    if (from === -1 || at - from > DICTIONARY_WINDOW)
        return undefined;
    const dictionary = buffer.toString('latin1', from, at);
    if (!/\/Subtype\s*\/Image\b/.test(dictionary))
        return undefined;
    const width = Number(/\/Width\s+(\d+)/.exec(dictionary)?.[1]);
    const height = Number(/\/Height\s+(\d+)/.exec(dictionary)?.[1]);
    const bits = Number(/\/BitsPerComponent\s+(\d+)/.exec(dictionary)?.[1] ?? 8);
    if (!(width > 0 && height > 0 && bits > 0))
        return undefined;
    return (Math.ceil((width * 4 * Math.max(bits, 8)) / 8) + 1) * height;
}
/** True when two bytes open a zlib stream (FlateDecode's format): deflate, a valid check. */
function zlibHeader(cmf, flg) {
    return (cmf !== undefined && flg !== undefined && (cmf & 0x0f) === 8 && (cmf * 256 + flg) % 31 === 0);
}
/**
 * Inflates every FlateDecode stream of a PDF (content streams, fonts, images, object and xref
 * streams: any `stream` whose data opens with a zlib header) to count what the file really
 * expands to, before pdf.js reads it, and stops as soon as the count passes `limit`: a
 * FILE_SIZE_TOO_LARGE {@link ParseFailure} then. Streams are found by their keyword, not through
 * the cross-reference table, so a damaged table hides none; encrypted streams (not zlib until
 * decrypted) are not counted.
 *
 * Image XObjects are the exception: a scanned page's FlateDecode image of mostly white paper
 * expands a hundred times or more, as no bomb-free text does. Each counts against what its own
 * dimensions say it decodes to (inflating past that is a bomb) and all of them together against
 * `imageLimit`, not against `limit`.
 */
export async function measurePdfStreams(bytes, limit, signal, describeLimit, imageLimit = limit) {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let total = 0;
    let images = 0;
    let streams = 0;
    let at = buffer.indexOf(STREAM, 0);
    while (at !== -1) {
        signal.throwIfAborted();
        let start = at + STREAM.length;
        // `endstream` closes a stream; `stream` opens one when an end of line follows it.
        const opens = !(at >= 3 && buffer.toString('latin1', at - 3, at) === 'end');
        if (opens && buffer[start] === 0x0d)
            start++;
        if (opens && buffer[start] === 0x0a) {
            start++;
            if (zlibHeader(buffer[start], buffer[start + 1])) {
                streams++;
                const image = imageBytes(buffer, at);
                const cap = image === undefined ? limit - total : Math.min(image, imageLimit - images) + 1;
                // A damaged stream is pdf.js's to judge (it reads what inflates): it counts for that.
                const inflated = await inflatedSize(bytes.subarray(start), 'zlib', cap, signal).catch((error) => {
                    signal.throwIfAborted();
                    return error.inflated ?? 0;
                });
                if (image === undefined)
                    total += inflated;
                else if (inflated > image) {
                    throw new ParseFailure('FILE_SIZE_TOO_LARGE', `An image of the PDF inflates past the ${image} bytes its dimensions allow: a decompression bomb.`);
                }
                else
                    images += inflated;
                if (total > limit) {
                    throw new ParseFailure('FILE_SIZE_TOO_LARGE', describeLimit(limit, total));
                }
                if (images > imageLimit) {
                    throw new ParseFailure('FILE_SIZE_TOO_LARGE', describeLimit(imageLimit, images));
                }
            }
        }
        at = buffer.indexOf(STREAM, start);
    }
    return { streams, inflatedBytes: total, imageBytes: images };
}
//# sourceMappingURL=measure-streams.js.map