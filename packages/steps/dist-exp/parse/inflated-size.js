import { createInflate, createInflateRaw, inflateRawSync, inflateSync } from 'node:zlib';
/**
 * Counts what a compressed stream starting at `data` inflates to, and stops as soon as the count
 * passes `budget` (returning the count so far). The stream ends where its own data says, whatever
 * a header claimed its length was; trailing bytes are ignored. zlib inflates in libuv's thread
 * pool in 1 MiB chunks: this thread only adds lengths, and memory stays at a chunk whatever the
 * data expands to. Rejects when the data is not a valid stream of that format, with what it
 * inflated before the damage as the error's `inflated` (readers that tolerate damage use it).
 */
export function inflatedSize(data, format, budget, signal) {
    const quick = inflateSmall(data, format, budget);
    if (quick !== undefined)
        return Promise.resolve(quick);
    return inflateCounting(data, format, budget, signal);
}
/** Input and output sizes a stream is inflated at once, in this thread, when it fits them. */
const SMALL_INPUT = 256 * 1024;
const SMALL_OUTPUT = 4 * 1024 * 1024;
/**
 * Most streams (a PDF's content, fonts, a document's parts) are small: inflating them at once
 * costs microseconds where a stream through the thread pool costs a round trip. Undefined when
 * the stream is longer than the window or damaged: the counting path decides then.
 */
function inflateSmall(data, format, budget) {
    const window = data.subarray(0, SMALL_INPUT);
    const overBudget = Math.max(1, Math.floor(budget) + 1);
    const maxOutputLength = Math.min(SMALL_OUTPUT, overBudget);
    try {
        const out = format === 'zlib'
            ? inflateSync(window, { maxOutputLength })
            : inflateRawSync(window, { maxOutputLength });
        return out.length;
    }
    catch (error) {
        const code = error.code;
        // Past the budget already: that is all the caller needs to know.
        if (code === 'ERR_BUFFER_TOO_LARGE' && maxOutputLength === overBudget)
            return overBudget;
        return undefined;
    }
}
function inflateCounting(data, format, budget, signal) {
    return new Promise((resolve, reject) => {
        let total = 0;
        const options = { chunkSize: 1024 * 1024 };
        const inflate = format === 'zlib' ? createInflate(options) : createInflateRaw(options);
        const onAbort = () => inflate.destroy(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        const settle = (fn) => {
            signal.removeEventListener('abort', onAbort);
            fn();
        };
        inflate.on('data', (chunk) => {
            total += chunk.length;
            if (total > budget) {
                inflate.destroy();
                settle(() => resolve(total));
            }
        });
        inflate.on('end', () => settle(() => resolve(total)));
        inflate.on('error', (error) => settle(() => reject(Object.assign(error, { inflated: total }))));
        inflate.end(data);
    });
}
//# sourceMappingURL=inflated-size.js.map