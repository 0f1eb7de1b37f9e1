/**
 * Source patches to pdf.js's worker half (pdfjs-dist 5.6.205, pinned), applied to its text as it
 * is loaded (see `loadWorkerHalf`). Each names what it fixes; each must match exactly once, so
 * that an upgrade of pdf.js that moves the code fails loudly (every PDF test fails at load)
 * rather than silently dropping the fix.
 */
interface SourcePatch {
  readonly name: string;
  readonly find: string;
  readonly replace: string;
}

const PATCHES: readonly SourcePatch[] = [
  {
    // A simple font whose ToUnicode CMap maps only some codes (TeX's dvipdfmx writes entries for
    // ff and ffi but not fi or fl) gets no Unicode for the others from its embedded program's
    // built-in encoding: pdf.js then emits the raw code, so "file" reads as "\fle" (a space) and
    // symbol fonts as control characters. Poppler fills such gaps from the glyph names of the
    // built-in encoding; with this patch pdf.js does the same for the codes the CMap leaves out
    // (the CMap still wins where it has an entry).
    name: 'built-in encoding fills the gaps of a partial ToUnicode',
    find: `function adjustType1ToUnicode(properties, builtInEncoding) {
  if (properties.isInternalFont) {
    return;
  }
  if (properties.hasIncludedToUnicodeMap) {
    return;
  }`,
    // On as many lines as it replaces: stack traces keep the installed file's line numbers.
    replace: `function adjustType1ToUnicode(properties, builtInEncoding) {
  if (properties.isInternalFont) {
    return;
  }
  if (properties.hasIncludedToUnicodeMap) {
    if (!properties.composite && !(properties.toUnicode instanceof IdentityToUnicodeMap)) { const gaps = [], names = getGlyphsUnicode(); for (const code in builtInEncoding) { if (!properties.toUnicode.has(code)) { const unicode = getUnicodeForGlyph(builtInEncoding[code], names); if (unicode !== -1) gaps[code] = String.fromCharCode(unicode); } } if (gaps.length > 0) properties.toUnicode.amend(gaps); }
    return;
  }`,
  },
  {
    // Text content names a font only by pdf.js's internal id: docflow reads bold text from the
    // font's name and flags, which pdf.js otherwise sends only with an operator list (as costly
    // as the text itself). The text content's style of a font carries them too.
    name: 'text content styles carry the font name and weight',
    find: `        textContent.styles[loadedName] = {
          fontFamily: font.fallbackName,`,
    replace: `        textContent.styles[loadedName] = {
          fontFamily: font.fallbackName, fontName: font.name, bold: font.bold || font.black,`,
  },
  {
    // Every decoding filter (Flate, LZW, RunLength, ASCII85, ASCIIHex, predictors) grows its
    // output through this one method, into typed arrays outside the V8 heap, where a worker's
    // heap limit does not reach: an LZW stream can expand a few thousand times. The thread's
    // limit (stream-limit.ts) stops a stream that decodes past it and records that it did.
    name: "decoded streams stop at the thread's stream limit",
    find: `  ensureBuffer(requested) {
    const buffer = this.buffer;
    if (requested <= buffer.byteLength) {`,
    replace: `  ensureBuffer(requested) {
    const buffer = this.buffer; const docflowLimit = globalThis[Symbol.for("docflow.pdfStreamLimit")]; if (docflowLimit && requested > docflowLimit.bytes) { docflowLimit.exceeded = true; throw new Error(\`a stream decodes past \${docflowLimit.bytes} bytes\`); }
    if (requested <= buffer.byteLength) {`,
  },
];

/** The worker half's source with every {@link PATCHES patch} applied; throws when one does not match once. */
export function patchWorkerSource(source: string): string {
  let out = source;
  for (const patch of PATCHES) {
    const at = out.indexOf(patch.find);
    if (at < 0 || out.indexOf(patch.find, at + 1) >= 0) {
      throw new Error(
        `pdf.js source patch '${patch.name}' does not apply to this pdfjs-dist (expected 5.6.205)`,
      );
    }
    out = out.slice(0, at) + patch.replace + out.slice(at + patch.find.length);
  }
  return out;
}
