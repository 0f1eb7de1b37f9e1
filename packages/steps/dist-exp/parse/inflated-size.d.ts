/**
 * Counts what a compressed stream starting at `data` inflates to, and stops as soon as the count
 * passes `budget` (returning the count so far). The stream ends where its own data says, whatever
 * a header claimed its length was; trailing bytes are ignored. zlib inflates in libuv's thread
 * pool in 1 MiB chunks: this thread only adds lengths, and memory stays at a chunk whatever the
 * data expands to. Rejects when the data is not a valid stream of that format, with what it
 * inflated before the damage as the error's `inflated` (readers that tolerate damage use it).
 */
export declare function inflatedSize(data: Uint8Array, format: 'deflate-raw' | 'zlib', budget: number, signal: AbortSignal): Promise<number>;
//# sourceMappingURL=inflated-size.d.ts.map