/**
 * The most one decoded PDF stream may hold in this thread, bytes, as pdf.js's patched
 * `DecodeStream.ensureBuffer` reads it (pdfjs-patches.ts). Decoded data lives in typed arrays,
 * outside the V8 heap that a worker's `resourceLimits` bound, so this is what bounds it.
 */
interface StreamLimit {
  bytes: number;
  exceeded: boolean;
}

const KEY = Symbol.for('docflow.pdfStreamLimit');

function slot(): { [KEY]?: StreamLimit } {
  return globalThis as { [KEY]?: StreamLimit };
}

/** Sets this thread's limit for the document about to be read (a PDF worker reads one at a time). */
export function setPdfStreamLimit(bytes: number): void {
  slot()[KEY] = { bytes, exceeded: false };
}

/** True when a stream passed the limit since it was set (pdf.js may have swallowed the error). */
export function pdfStreamLimitExceeded(): boolean {
  return slot()[KEY]?.exceeded ?? false;
}

/** This thread's stream limit, bytes; `undefined` where none is set (pdf.js in the calling thread). */
export function pdfStreamLimitBytes(): number | undefined {
  return slot()[KEY]?.bytes;
}
