import { kMaxLength } from 'node:buffer';
import { inflateSync } from 'node:zlib';
import { pdfStreamLimitBytes } from './stream-limit.ts';

/**
 * FlateDecode through Node's zlib for pdf.js (pdfjs-patches.ts), and what it inflated kept for
 * docflow's own reading of the same page's content stream (page-content.ts), which otherwise
 * inflated it a second time.
 */

const INFLATE = Symbol.for('docflow.inflate');

/** A stream pdf.js had inflated here: its encoded bytes (zlib framed) and what they inflate to. */
interface Inflated {
  readonly encoded: Uint8Array;
  readonly decoded: Uint8Array;
}

/** What pdf.js inflated since {@link forgetInflated}, by encoded length. */
const kept = new Map<number, Inflated[]>();
let keptBytes = 0;
/** Decoded bytes kept at most (a page's content streams and fonts): past it nothing more is. */
const KEPT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Lets pdf.js's Flate streams inflate through Node's zlib, about three times faster than its own
 * inflate: `encoded` whole (zlib framed), up to this thread's stream limit. `undefined` when
 * zlib refuses it (damaged, truncated, a failed check, past the limit): pdf.js then inflates it
 * itself, reading what it can and stopping at the limit, as without this.
 */
export function installZlibInflate(): void {
  (globalThis as { [INFLATE]?: unknown })[INFLATE] = (
    encoded: Uint8Array,
  ): Uint8Array | undefined => {
    let decoded: Uint8Array;
    try {
      const out = inflateSync(encoded, {
        maxOutputLength: Math.min(pdfStreamLimitBytes() ?? kMaxLength, kMaxLength),
      });
      decoded = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    } catch {
      return undefined;
    }
    if (keptBytes + decoded.length <= KEPT_MAX_BYTES) {
      keptBytes += decoded.length;
      const list = kept.get(encoded.length);
      if (list) list.push({ encoded, decoded });
      else kept.set(encoded.length, [{ encoded, decoded }]);
    }
    return decoded;
  };
}

/**
 * What zlib inflated `encoded` (a FlateDecode stream's bytes, zlib framed) to for pdf.js since
 * {@link forgetInflated}, when it did: the same bytes byte for byte, so the same result.
 */
export function inflatedByPdfJs(encoded: Uint8Array): Uint8Array | undefined {
  for (const entry of kept.get(encoded.length) ?? []) {
    if (Buffer.compare(entry.encoded, encoded) === 0) return entry.decoded;
  }
  return undefined;
}

/** Drops what {@link inflatedByPdfJs} remembers (before each page: it serves the page read). */
export function forgetInflated(): void {
  kept.clear();
  keptBytes = 0;
}
