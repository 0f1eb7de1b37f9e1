import { inflatedSize } from '../inflated-size.js';
import { ParseFailure } from '../parse-failure.js';
const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX32 = 0xffffffff;
function corrupt(message) {
    return new ParseFailure('CORRUPT_FILE', `The file is not a readable ZIP container: ${message}.`);
}
function uint64(view, at) {
    return view.getUint32(at, true) + view.getUint32(at + 4, true) * 2 ** 32;
}
/**
 * The entries of a ZIP's central directory (ZIP64 included: 64-bit sizes and offsets in the
 * entries' extra fields, the ZIP64 end record when there are more than 65,535 entries). Throws a
 * CORRUPT_FILE {@link ParseFailure} when the directory cannot be read.
 */
export function zipEntries(bytes) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let end = -1;
    for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
        if (view.getUint32(i, true) === EOCD) {
            end = i;
            break;
        }
    }
    if (end < 0)
        throw corrupt('no end of central directory');
    let count = view.getUint16(end + 10, true);
    let offset = view.getUint32(end + 16, true);
    const locator = end - 20;
    if ((count === 0xffff || offset === MAX32) &&
        locator >= 0 &&
        view.getUint32(locator, true) === ZIP64_LOCATOR) {
        const record = uint64(view, locator + 8);
        if (record + 56 > bytes.length || view.getUint32(record, true) !== ZIP64_EOCD) {
            throw corrupt('a ZIP64 end record points outside the file');
        }
        count = uint64(view, record + 32);
        offset = uint64(view, record + 48);
    }
    // Each directory entry takes at least 46 bytes: a count that cannot fit is a lie.
    if (count > (bytes.length - offset) / 46)
        throw corrupt(`the directory claims ${count} entries`);
    const entries = [];
    const decoder = new TextDecoder();
    for (let n = 0; n < count; n++) {
        if (offset + 46 > bytes.length || view.getUint32(offset, true) !== CENTRAL) {
            throw corrupt(`directory entry ${n + 1} is outside the file or damaged`);
        }
        const method = view.getUint16(offset + 10, true);
        let compressedSize = view.getUint32(offset + 20, true);
        let declaredSize = view.getUint32(offset + 24, true);
        const nameLength = view.getUint16(offset + 28, true);
        const extraLength = view.getUint16(offset + 30, true);
        const commentLength = view.getUint16(offset + 32, true);
        let localOffset = view.getUint32(offset + 42, true);
        const name = decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
        // ZIP64 extra field (id 1): the 64-bit values of the fields that hold 0xFFFFFFFF, in order.
        let extra = offset + 46 + nameLength;
        const extraEnd = Math.min(bytes.length, extra + extraLength);
        while (extra + 4 <= extraEnd) {
            const id = view.getUint16(extra, true);
            const size = view.getUint16(extra + 2, true);
            if (id === 1) {
                let at = extra + 4;
                const next = () => {
                    if (at + 8 > extra + 4 + size || at + 8 > bytes.length) {
                        throw corrupt(`the ZIP64 field of ${name} is truncated`);
                    }
                    const value = uint64(view, at);
                    at += 8;
                    return value;
                };
                if (declaredSize === MAX32)
                    declaredSize = next();
                if (compressedSize === MAX32)
                    compressedSize = next();
                if (localOffset === MAX32)
                    localOffset = next();
            }
            extra += 4 + size;
        }
        entries.push({ name, method, compressedSize, declaredSize, localOffset });
        offset += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
}
/**
 * Inflates every entry of a ZIP container to count what it really expands to, never trusting its
 * headers, and stops as soon as the count passes `limit`: a FILE_SIZE_TOO_LARGE
 * {@link ParseFailure} then. A directory whose declared sizes do not match the data (a lying
 * header, ZIP64 or not, which the parsing libraries would trust) is CORRUPT_FILE. Memory stays
 * at one chunk of 1 MiB whatever the container holds.
 */
export async function measureZip(bytes, limit, signal, describeLimit) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const entries = zipEntries(bytes);
    let total = 0;
    for (const entry of entries) {
        signal.throwIfAborted();
        const at = entry.localOffset;
        if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL) {
            throw corrupt(`the data of ${entry.name} is outside the file`);
        }
        const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
        let size;
        if (entry.method === 0) {
            size = Math.min(entry.compressedSize, Math.max(0, bytes.length - start));
        }
        else if (entry.method === 8) {
            try {
                size = await inflatedSize(bytes.subarray(start), 'deflate-raw', limit - total, signal);
            }
            catch (error) {
                signal.throwIfAborted();
                throw corrupt(`${entry.name} does not inflate (${error.message})`);
            }
        }
        else {
            throw corrupt(`${entry.name} uses compression method ${entry.method}`);
        }
        total += size;
        if (total > limit) {
            throw new ParseFailure('FILE_SIZE_TOO_LARGE', describeLimit(limit, total));
        }
        if (size !== entry.declaredSize) {
            throw corrupt(`its directory says ${entry.name} holds ${entry.declaredSize} bytes, its data inflates to ${size}`);
        }
    }
    return { entries: entries.length, inflatedBytes: total };
}
//# sourceMappingURL=zip-measure.js.map