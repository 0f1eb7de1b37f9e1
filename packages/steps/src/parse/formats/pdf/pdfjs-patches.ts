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
    // Letter-spaced text (`2 Tc`, as ReportLab's charSpace and spaced-out letterheads set it) is
    // a gap of the character spacing after every glyph, which pdf.js took for a word space once
    // wider than a tenth of the size: "LUMIÈRE" read "L U M I È R E". Poppler counts the
    // spacing into each glyph's advance; so does pdf.js with this patch (a positive spacing
    // only: tight tracking keeps pdf.js's own reading).
    name: 'character spacing is no word space',
    find: `      const advanceX = (posX - lastPosX) / textContentItem.textAdvanceScale;`,
    replace: `      const advanceX = (posX - lastPosX) / textContentItem.textAdvanceScale - Math.max(0, textState.charSpacing * textState.textHScale);`,
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
  {
    // pdf.js inflates FlateDecode in JavaScript, about three times slower than zlib. A Flate
    // stream read from the file's bytes is inflated whole by Node's zlib at its first block
    // (zlib-inflate.ts, bounded by the stream limit); one zlib refuses (damaged, truncated, past
    // the limit) takes pdf.js's own inflate as before, which reads what it can and stops at the
    // limit. The two header bytes the constructor read are given back: zlib checks them.
    name: 'Flate streams inflated by zlib',
    find: `  readBlock() {
    let buffer, hdr, len;
    const str = this.stream;`,
    replace: `  readBlock() {
    let buffer, hdr, len;
    const str = this.stream; if (this.docflowZlib === undefined && str instanceof Stream && str.pos >= str.start + 2) { this.docflowZlib = false; const out = globalThis[Symbol.for("docflow.inflate")]?.(str.bytes.subarray(str.pos - 2, str.end)); if (out) { this.buffer = out; this.bufferLength = out.length; this.eof = true; str.pos = str.end; return; } }`,
  },
  {
    // Content streams and fonts are first asked for whole, through the web DecompressionStream,
    // which docflow hides (pdfjs.ts): zlib answers instead, as above.
    name: 'whole Flate streams inflated by zlib',
    find: `    const bytes = this.stream.isAsync ? await this.stream.asyncGetBytes() : this.stream.getBytes();`,
    replace: `    const bytes = this.stream.isAsync ? await this.stream.asyncGetBytes() : this.stream.getBytes(); const docflowOut = name === "deflate" ? globalThis[Symbol.for("docflow.inflate")]?.(bytes) : undefined; if (docflowOut) return { decompressed: docflowOut, compressed: bytes };`,
  },
  {
    // The text state is copied at every `q` and at every change of font or size: as an object
    // whose prototype is the state copied. V8 then turns each copied state into a prototype
    // (a costly change of its shape), and every copy has a shape of its own, so the text
    // reading's accesses to the state go megamorphic. The same own fields on the class's
    // prototype read the same (pdf.js adds no field to a state after it is copied).
    name: 'text state copies share one shape',
    find: `    const clone = Object.assign(Object.create(this), this);`,
    replace: `    const clone = Object.assign(Object.create(TextState.prototype), this);`,
  },
  {
    // Text reading places every glyph run through the shared matrix product, which pdf.js calls
    // with arrays of every kind (small integers, doubles, Float32Array): its element reads go
    // megamorphic, about 8% of reading a page's text. The same products, in the same order
    // (the same doubles), written out where each operand has one kind.
    name: 'the text transform multiplies in place',
    find: `      return Util.transform(textState.ctm, Util.transform(textState.textMatrix, tsm));`,
    replace: `      const c = textState.ctm, t = textState.textMatrix, m0 = t[0] * tsm[0] + t[2] * tsm[1], m1 = t[1] * tsm[0] + t[3] * tsm[1], m2 = t[0] * tsm[2] + t[2] * tsm[3], m3 = t[1] * tsm[2] + t[3] * tsm[3], m4 = t[0] * tsm[4] + t[2] * tsm[5] + t[4], m5 = t[1] * tsm[4] + t[3] * tsm[5] + t[5]; return [c[0] * m0 + c[2] * m1, c[1] * m0 + c[3] * m1, c[0] * m2 + c[2] * m3, c[1] * m2 + c[3] * m3, c[0] * m4 + c[2] * m5 + c[4], c[1] * m4 + c[3] * m5 + c[5]];`,
  },
  // The next four make an embedded Type1 or CFF font's OpenType file (`font.data`) when it is
  // first asked for, not as the font is loaded: reading text needs the font's glyph mapping,
  // widths and Unicode, which are all worked out as before, but not the file, which only
  // drawing uses (the operator list's glyph outlines, rendering a page for OCR, a browser's font
  // face). For TeX's Type1 fonts the file is a third of loading the font (decision 0048). A font
  // holds the making (a function) where it held the file; {@link LAZY_DATA} makes it on first
  // read. Nothing pdf.js does after loading a font changes what the making reads.
  {
    // A Type1 program's CFF rebuild (its charstrings compiled again).
    name: "a Type1 font's CFF rebuild is made on first use",
    find: `    this.data = this.wrap(name, type2Charstrings, this.charstrings, subrs, properties);`,
    replace: `    this.data = () => this.wrap(name, type2Charstrings, this.charstrings, subrs, properties);`,
  },
  {
    // A CFF program compiled again (pdf.js normalises it), or the program as it came when that
    // fails.
    name: "a CFF font's compiled program is made on first use",
    find: `    try {
      this.data = compiler.compile();
    } catch {
      warn("Failed to compile font " + properties.loadedName);
      this.data = file;
    }`,
    replace: `    this.data = () => { try {
      return compiler.compile();
    } catch {
      warn("Failed to compile font " + properties.loadedName);
      return file;
    } };`,
  },
  {
    // The OpenType file around a Type1 or CFF program (also an OpenType font's CFF table, through
    // `checkAndRepair`): `convert` works out the glyph mapping, the Unicode adjustments and the
    // accent map at once, as before, and answers with the making of the file.
    name: 'the OpenType file of a Type1 or CFF font is made on first use',
    find: `    const unitsPerEm = properties.fontMatrix ? 1 / Math.max(...properties.fontMatrix.slice(0, 4).map(Math.abs)) : 1000;`,
    replace: `    return () => { const unitsPerEm = properties.fontMatrix ? 1 / Math.max(...properties.fontMatrix.slice(0, 4).map(Math.abs)) : 1000;`,
  },
  {
    name: 'the OpenType file of a Type1 or CFF font closes its function',
    find: `    return builder.toArray();
  }
  get _spaceWidth() {`,
    replace: `    return builder.toArray(); };
  }
  get _spaceWidth() {`,
  },
];

/**
 * Appended to the worker half: `data` of a `Font`, a `Type1Font` and a `CFFFont` becomes an
 * accessor of their prototypes over an own field, `docflowData`, that runs a making (a function)
 * held there on first read and keeps what it made. On the prototypes, so that every font keeps one shape
 * (accessors of its own would give each font a map of its own, and turning one into a value
 * changes its map again: the text reading's accesses to fonts would go megamorphic). A making
 * that throws leaves `data` undefined, as pdf.js leaves a font without a file (nothing of it is
 * drawn), with a warning.
 */
const LAZY_DATA = `for (const docflowClass of [Font, Type1Font, CFFFont]) Object.defineProperty(docflowClass.prototype, "data", { configurable: true, get() { let data = this.docflowData; if (typeof data === "function") { try { data = data(); } catch (error) { warn(\`docflow: a font file could not be made: \${error}\`); data = undefined; } this.docflowData = data; } return data; }, set(data) { this.docflowData = data; } });\n`;

/**
 * The worker half's source with every {@link PATCHES patch} applied and {@link LAZY_DATA} after
 * it (line numbers stay); throws when a patch does not match once.
 */
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
  return `${out}\n${LAZY_DATA}`;
}
