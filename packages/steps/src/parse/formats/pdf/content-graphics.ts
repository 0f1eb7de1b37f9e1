import { MAX_IMAGE_PIXELS } from '../../format-context.ts';
import { type Matrix, multiply } from './geometry.ts';
import { type GraphicsSink, PDF_OPS } from './page-graphics.ts';

/** An XObject as the content-stream reader needs it. */
export type ContentXObject =
  | {
      readonly kind: 'image';
      readonly width: unknown;
      readonly height: unknown;
      readonly imageMask: boolean;
    }
  | {
      readonly kind: 'form';
      /** `/Matrix` when it is six numbers, else null (identity), as pdf.js reads it. */
      readonly matrix: Matrix | null;
      /** The decoded form content. */
      readonly content: Uint8Array;
      readonly resources: ContentResources;
    }
  /** Missing, PostScript or of an unknown subtype: pdf.js paints nothing. */
  | { readonly kind: 'other' };

/** Resolves the XObject names of one resource dictionary. */
export interface ContentResources {
  /** `undefined` when the object cannot be read here: the page falls back to pdf.js. */
  xobject(name: string): ContentXObject | undefined;
}

/**
 * Why a page is left to pdf.js's operator list: what this reader does not model exactly
 * (inline image data whose end pdf.js finds only by its recoveries, operand recovery on
 * malformed operators, pdf.js's batching of repeated images, single-pixel image masks, deep or
 * recursive forms).
 */
export class UnsupportedContent extends Error {
  override readonly name = 'UnsupportedContent';
}

/** Path construction and XObject operators, numbered out of pdf.js's range (never sent on). */
const OP = {
  move: 1001,
  line: 1002,
  curve: 1003,
  curve2: 1004,
  curve3: 1005,
  close: 1006,
  rect: 1007,
  xobject: 1008,
  inlineImage: 1009,
  /** `ID` or `EI` outside an inline image. */
  inlineData: 1010,
} as const;

/** Operators: pdf.js operator id (or -1 when only the arity matters) and operand count. */
const OPERATORS: Readonly<Record<string, readonly [id: number, args: number, variable?: true]>> = {
  w: [-1, 1],
  J: [-1, 1],
  j: [-1, 1],
  M: [-1, 1],
  d: [-1, 2],
  ri: [-1, 1],
  i: [-1, 1],
  gs: [-1, 1],
  q: [PDF_OPS.save, 0],
  Q: [PDF_OPS.restore, 0],
  cm: [PDF_OPS.transform, 6],
  m: [OP.move, 2],
  l: [OP.line, 2],
  c: [OP.curve, 6],
  v: [OP.curve2, 4],
  y: [OP.curve3, 4],
  h: [OP.close, 0],
  re: [OP.rect, 4],
  S: [PDF_OPS.stroke, 0],
  s: [PDF_OPS.closeStroke, 0],
  f: [PDF_OPS.fill, 0],
  F: [PDF_OPS.fill, 0],
  'f*': [PDF_OPS.eoFill, 0],
  B: [PDF_OPS.fillStroke, 0],
  'B*': [PDF_OPS.eoFillStroke, 0],
  b: [PDF_OPS.closeFillStroke, 0],
  'b*': [PDF_OPS.closeEOFillStroke, 0],
  n: [PDF_OPS.endPath, 0],
  W: [-1, 0],
  'W*': [-1, 0],
  BT: [-1, 0],
  ET: [-1, 0],
  Tc: [-1, 1],
  Tw: [-1, 1],
  Tz: [-1, 1],
  TL: [-1, 1],
  Tf: [-1, 2],
  Tr: [-1, 1],
  Ts: [-1, 1],
  Td: [-1, 2],
  TD: [-1, 2],
  Tm: [-1, 6],
  'T*': [-1, 0],
  Tj: [-1, 1],
  TJ: [-1, 1],
  "'": [-1, 1],
  '"': [-1, 3],
  d0: [-1, 2],
  d1: [-1, 6],
  CS: [-1, 1],
  cs: [-1, 1],
  SC: [-1, 4, true],
  SCN: [-1, 33, true],
  sc: [-1, 4, true],
  scn: [-1, 33, true],
  G: [-1, 1],
  g: [-1, 1],
  RG: [-1, 3],
  rg: [-1, 3],
  K: [-1, 4],
  k: [-1, 4],
  sh: [-1, 1],
  BI: [OP.inlineImage, 0],
  ID: [OP.inlineData, 0],
  EI: [OP.inlineData, 1],
  Do: [OP.xobject, 1],
  MP: [-1, 1],
  DP: [-1, 2],
  BMC: [-1, 1],
  BDC: [-1, 2],
  EMC: [-1, 0],
  BX: [-1, 0],
  EX: [-1, 0],
};

/**
 * Command names the pdf.js lexer knows, prefixes included: it stops a command as soon as the
 * next character would turn a known name into an unknown one (`fQ` is `f` then `Q`).
 */
const KNOWN_NAMES = [
  ...Object.keys(OPERATORS),
  'BM',
  'BD',
  'true',
  'fa',
  'fal',
  'fals',
  'false',
  'nu',
  'nul',
  'null',
];

/** A command name as a number (its characters in base 256): no string per operator read. */
function keyOf(name: string): number {
  let key = 0;
  for (let k = name.length - 1; k >= 0; k--) key = key * 256 + name.charCodeAt(k);
  return key;
}

/** Longest command name that can be known (`false`). */
const MAX_COMMAND = 5;
const KNOWN = new Set(KNOWN_NAMES.map(keyOf));
const BY_KEY = new Map(Object.entries(OPERATORS).map(([name, spec]) => [keyOf(name), spec]));
const TRUE = keyOf('true');
const FALSE = keyOf('false');
const NULL = keyOf('null');

/** Operators pdf.js accepts with at most this many operands. */
const MAX_OPERANDS = 33;
/** Forms nested deeper than this are left to pdf.js (it also rejects recursive forms). */
const MAX_FORM_DEPTH = 8;
/** pdf.js folds three or more image paints in a row into one `paintImageXObjectRepeat`. */
const MAX_IMAGES = 2;

const SPECIAL = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) SPECIAL[c] = 1; // whitespace
for (const c of '()<>[]{}/%') SPECIAL[c.charCodeAt(0)] = 2; // delimiters

const NUMBER = 0;
const NAME = 1;
const OTHER = 2;

/**
 * The key ({@link keyOf}) of the command at `from`, cut where pdf.js's lexer cuts it: the run of
 * regular characters before `to`, stopped where the next character would turn a known name into
 * an unknown one. Declines (with `why`) a character outside printable ASCII and a name longer
 * than any known one. Its length is {@link commandLength}.
 */
function commandAt(bytes: Uint8Array, from: number, to: number, why: string): number {
  let key = 0;
  let scale = 1;
  let known = false;
  for (let j = from; j < to && SPECIAL[bytes[j] as number] === 0; j++) {
    const c = bytes[j] as number;
    if (c < 0x20 || c > 0x7f) unsupported(why);
    const longer = key + c * scale;
    if (known && !KNOWN.has(longer)) break;
    if (j - from === MAX_COMMAND) unsupported(why);
    key = longer;
    scale *= 256;
    known = KNOWN.has(key);
  }
  return key;
}

/** The characters of a command whose key is `key`: one byte of it each, none zero. */
function commandLength(key: number): number {
  let length = 0;
  for (let k = key; k > 0; k = Math.floor(k / 256)) length++;
  return length;
}

interface Limits {
  /** Operators read over the page and its forms before the rest is ignored. */
  ops: number;
  images: number;
}

/**
 * Reads the painted paths and image placements of a decoded page content stream into `sink`,
 * following `q`/`Q`, `cm` and form XObjects as pdf.js's operator list would present them, without
 * the operator list's cost (it evaluates every glyph and structured-clones its arguments between
 * pdf.js's two halves). Coordinates are rounded to float32 like pdf.js's path buffers.
 * Throws {@link UnsupportedContent} where it cannot promise pdf.js's result; the caller then asks
 * pdf.js for the operator list of that page.
 */
export function readContentGraphics(
  content: Uint8Array,
  resources: ContentResources,
  sink: GraphicsSink,
  maxOps = 500_000,
): void {
  run(content, resources, sink, [1, 0, 0, 1, 0, 0], 0, { ops: maxOps, images: 0 });
}

function unsupported(why: string): never {
  throw new UnsupportedContent(why);
}

function run(
  bytes: Uint8Array,
  resources: ContentResources,
  sink: GraphicsSink,
  initial: Matrix,
  depth: number,
  limits: Limits,
): void {
  const length = bytes.length;
  const values = new Float64Array(MAX_OPERANDS + 1);
  const kinds = new Uint8Array(MAX_OPERANDS + 1);
  // The last name operand, decoded only when an operator needs it (Do).
  let nameStart = 0;
  let nameStop = 0;
  let nameEscaped = false;
  let argc = 0;
  const stack: Matrix[] = [];
  let ctm = initial;
  let path: number[] = [];
  let currentX = 0;
  let currentY = 0;
  const push = (kind: number, value: number) => {
    if (argc === MAX_OPERANDS) unsupported('too many operands');
    kinds[argc] = kind;
    values[argc] = value;
    argc++;
  };
  const numbers = (count: number) => {
    if (argc !== count) unsupported('operand count');
    for (let k = 0; k < count; k++) if (kinds[k] !== NUMBER) unsupported('operand type');
  };
  // A Bézier segment as pdf.js records it (kind 2, float32 control points, end point).
  const curveTo = (x1: number, y1: number, x2: number, y2: number, x3: number, y3: number) => {
    path.push(
      2,
      Math.fround(x1),
      Math.fround(y1),
      Math.fround(x2),
      Math.fround(y2),
      Math.fround(x3),
      Math.fround(y3),
    );
    currentX = x3;
    currentY = y3;
  };
  let i = 0;
  while (i < length) {
    const c = bytes[i] as number;
    const special = SPECIAL[c];
    if (special === 1) {
      i++;
      continue;
    }
    if (special === 2) {
      if (c === 0x25) {
        // % comment to the end of the line
        while (i < length && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++;
      } else if (c === 0x2f) {
        nameStart = ++i;
        nameEscaped = false;
        while (i < length && SPECIAL[bytes[i] as number] === 0) {
          if (bytes[i] === 0x23) nameEscaped = true;
          i++;
        }
        nameStop = i;
        push(NAME, 0);
      } else if (c === 0x28) {
        i = skipString(bytes, i + 1);
        push(OTHER, 0);
      } else if (c === 0x3c) {
        i = bytes[i + 1] === 0x3c ? skipDict(bytes, i + 2) : skipHex(bytes, i + 1);
        push(OTHER, 0);
      } else if (c === 0x5b) {
        i = skipArray(bytes, i + 1);
        push(OTHER, 0);
      } else {
        // ) > ] { } out of place: pdf.js recovers in ways not worth modelling.
        unsupported('stray delimiter');
      }
      continue;
    }
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
      // As pdf.js's lexer: the digits as an integer, divided by 10 per decimal. "--1", "1-2",
      // "1.2.3", a lone sign or a letter glued on: pdf.js has its own recoveries for those.
      let j = i;
      let sign = 1;
      if (c === 0x2b || c === 0x2d) {
        if (c === 0x2d) sign = -1;
        j++;
      }
      let value = 0;
      let divideBy = 0;
      let digits = 0;
      for (; j < length; j++) {
        const d = bytes[j] as number;
        if (d >= 0x30 && d <= 0x39) {
          value = value * 10 + (d - 0x30);
          if (divideBy !== 0) divideBy *= 10;
          digits++;
        } else if (d === 0x2e && divideBy === 0) divideBy = 1;
        else break;
      }
      if (digits === 0 || (j < length && SPECIAL[bytes[j] as number] === 0)) {
        unsupported('odd number');
      }
      if (divideBy !== 0) value /= divideBy;
      push(NUMBER, sign * value);
      i = j;
      continue;
    }
    const key = commandAt(bytes, i, length, 'unknown command');
    i += commandLength(key);
    if (key === TRUE || key === FALSE) {
      push(OTHER, 0);
      continue;
    }
    // pdf.js drops null operands.
    if (key === NULL) continue;
    const spec = BY_KEY.get(key);
    if (!spec) unsupported('unknown command');
    const [id, arity, variable] = spec;
    if (variable ? argc > arity : argc !== arity) unsupported('operand count');
    if (--limits.ops < 0) return;
    switch (id) {
      case PDF_OPS.save:
        stack.push(ctm);
        break;
      case PDF_OPS.restore:
        ctm = stack.pop() ?? ctm;
        break;
      case PDF_OPS.transform:
        numbers(6);
        ctm = multiply(ctm, [
          values[0] as number,
          values[1] as number,
          values[2] as number,
          values[3] as number,
          values[4] as number,
          values[5] as number,
        ]);
        break;
      case OP.move:
        numbers(2);
        currentX = values[0] as number;
        currentY = values[1] as number;
        path.push(0, Math.fround(currentX), Math.fround(currentY));
        break;
      case OP.line:
        numbers(2);
        currentX = values[0] as number;
        currentY = values[1] as number;
        path.push(1, Math.fround(currentX), Math.fround(currentY));
        break;
      case OP.curve:
        numbers(6);
        curveTo(
          values[0] as number,
          values[1] as number,
          values[2] as number,
          values[3] as number,
          values[4] as number,
          values[5] as number,
        );
        break;
      case OP.curve2:
        numbers(4);
        curveTo(
          currentX,
          currentY,
          values[0] as number,
          values[1] as number,
          values[2] as number,
          values[3] as number,
        );
        break;
      case OP.curve3:
        numbers(4);
        curveTo(
          values[0] as number,
          values[1] as number,
          values[2] as number,
          values[3] as number,
          values[2] as number,
          values[3] as number,
        );
        break;
      case OP.close:
        path.push(4);
        break;
      case OP.rect: {
        numbers(4);
        const x = values[0] as number;
        const y = values[1] as number;
        const xw = x + (values[2] as number);
        const yh = y + (values[3] as number);
        currentX = x;
        currentY = y;
        const [fx, fy, fxw, fyh] = [x, y, xw, yh].map(Math.fround) as [
          number,
          number,
          number,
          number,
        ];
        // As pdf.js's buildPath: a degenerate rectangle is one diagonal.
        if (values[2] === 0 || values[3] === 0) path.push(0, fx, fy, 1, fxw, fyh, 4);
        else path.push(0, fx, fy, 1, fxw, fy, 1, fxw, fyh, 1, fx, fyh, 4);
        break;
      }
      case PDF_OPS.stroke:
      case PDF_OPS.fill:
      case PDF_OPS.eoFill:
      case PDF_OPS.fillStroke:
      case PDF_OPS.eoFillStroke:
      case PDF_OPS.endPath:
      case PDF_OPS.closeStroke:
      case PDF_OPS.closeFillStroke:
      case PDF_OPS.closeEOFillStroke:
        if (
          id === PDF_OPS.closeStroke ||
          id === PDF_OPS.closeFillStroke ||
          id === PDF_OPS.closeEOFillStroke
        ) {
          path.push(4);
        }
        if (path.length > 0) sink.path(id, path, ctm);
        path = [];
        break;
      case OP.xobject: {
        if (kinds[0] !== NAME) unsupported('XObject not named');
        const name = nameOf(bytes, nameStart, nameStop, nameEscaped);
        const xobject = resources.xobject(name);
        if (!xobject) unsupported(`XObject ${name} unreadable`);
        if (xobject.kind === 'image') {
          const { width, height } = xobject;
          // pdf.js skips images without usable dimensions.
          if (!width || typeof width !== 'number' || !height || typeof height !== 'number') break;
          // A 1×1 mask may become paintSolidColorImageMask (not an image) after decoding.
          if (xobject.imageMask && width === 1 && height === 1) unsupported('pixel mask');
          paintImage(sink, ctm, limits);
        } else if (xobject.kind === 'form') {
          if (depth >= MAX_FORM_DEPTH) unsupported('deep forms');
          const inner = xobject.matrix ? multiply(ctm, xobject.matrix) : ctm;
          run(xobject.content, xobject.resources, sink, inner, depth + 1, limits);
          if (limits.ops < 0) return;
        }
        break;
      }
      case OP.inlineImage: {
        const image = readInlineImage(bytes, i);
        i = image.end;
        if (image.paints) paintImage(sink, ctm, limits);
        break;
      }
      case OP.inlineData:
        unsupported('inline image data out of place');
    }
    argc = 0;
  }
}

function paintImage(sink: GraphicsSink, ctm: Matrix, limits: Limits): void {
  if (++limits.images > MAX_IMAGES) unsupported('many images');
  sink.image(ctm);
}

/** A value of an inline image's dictionary, as far as it decides what pdf.js paints. */
type InlineValue =
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'name'; readonly value: string }
  | { readonly kind: 'boolean'; readonly value: boolean }
  /** Numbers and names only; `undefined` for an element of another kind. */
  | { readonly kind: 'array'; readonly items: readonly (number | string | undefined)[] }
  | { readonly kind: 'other' };

const E = 0x45;
const I = 0x49;
/** Longest name or number read in an inline image's dictionary. */
const MAX_TOKEN = 127;
/** pdf.js's `isWhiteSpace` (no form feed, no NUL). */
const isWhiteSpace = (c: number | undefined) =>
  c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;

/**
 * Reads an inline image whose `BI` ends just before `from`, as pdf.js's parser does: its
 * dictionary to `ID`, its data from the byte after the one following `ID`, its end where its
 * filter marks it (DCT, ASCII85, ASCIIHex: then past the next `EI`), else where pdf.js finds it
 * (`EI` and a space or line end, followed by fifteen bytes of text and an operator with its
 * operands). Returns where reading resumes and whether pdf.js paints an image (not a missing
 * one, not a single opaque pixel of a mask).
 */
function readInlineImage(bytes: Uint8Array, from: number): { end: number; paints: boolean } {
  const dict = new Map<string, InlineValue>();
  let i = from;
  for (;;) {
    i = skipSpace(bytes, i, bytes.length);
    if (bytes[i] === I && bytes[i + 1] === 0x44) break;
    if (bytes[i] !== 0x2f) unsupported('inline image dictionary');
    const start = i + 1;
    i = nameEnd(bytes, start);
    if (i - start > MAX_TOKEN) unsupported('inline image key');
    const key = nameOf(bytes, start, i, hasEscape(bytes, start, i));
    i = skipSpace(bytes, i, bytes.length);
    const [value, next] = inlineValue(bytes, i);
    dict.set(key, value);
    i = next;
  }
  // pdf.js's lexer has taken the byte after `ID`, whatever it is, and reads on from it after the
  // image as if it came next: only whitespace there leaves no trace.
  const start = i + 3;
  if (start > bytes.length) unsupported('inline image without data');
  if (SPECIAL[bytes[i + 2] as number] !== 1) unsupported('inline image data glued to ID');
  const get = (key: string, long: string) => dict.get(key) ?? dict.get(long);
  const filter = get('F', 'Filter');
  let ended = -1;
  if (filter) {
    const name = filter.kind === 'array' ? filter.items[0] : filter.kind === 'name' && filter.value;
    if (typeof name !== 'string') unsupported('inline image filter');
    ended = filteredDataEnd(bytes, start, name);
  }
  let end: number;
  let length: number;
  if (ended >= 0) {
    end = skipEI(bytes, ended);
    length = ended - start;
  } else {
    end = inlineDataEnd(bytes, start);
    length = end - (isWhiteSpace(bytes[end - 4]) ? 4 : 3) - start;
    if (length < 0) unsupported('empty inline image');
  }
  const width = get('W', 'Width');
  const height = get('H', 'Height');
  if (width?.kind !== 'number' || !width.value || height?.kind !== 'number' || !height.value) {
    return { end, paints: false };
  }
  if (width.value * height.value > MAX_IMAGE_PIXELS) unsupported('inline image too large');
  const mask = get('IM', 'ImageMask');
  if (mask && mask.kind !== 'boolean') unsupported('inline image mask');
  if (mask?.value && width.value === 1 && height.value === 1) {
    // pdf.js paints a single opaque pixel as a solid colour, not an image.
    if (filter) unsupported('filtered pixel mask');
    const decode = get('D', 'Decode');
    if (decode && (decode.kind !== 'array' || typeof decode.items[0] !== 'number')) {
      unsupported('pixel mask decode');
    }
    const inverse = decode?.kind === 'array' && (decode.items[0] as number) > 0;
    const opaque = inverse === (length === 0 || ((bytes[start] as number) & 0x80) !== 0);
    return { end, paints: !opaque };
  }
  return { end, paints: true };
}

/** DCT markers followed by a segment length (pdf.js's `findDCTDecodeInlineStreamEnd`). */
const DCT_SEGMENT = new Uint8Array(256);
for (const marker of [
  0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xda,
  0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea,
  0xeb, 0xec, 0xed, 0xee, 0xef, 0xfe,
]) {
  DCT_SEGMENT[marker] = 1;
}

/**
 * Where pdf.js ends the data of an inline image whose filter marks its own end, from `start`:
 * past DCT's end-of-image marker, ASCII85's `~>` (or a `~` and whitespace before `EI`),
 * ASCIIHex's `>`. -1 for any other filter, and where the marker is missing: pdf.js then looks
 * for `EI` as for an image without a filter.
 */
function filteredDataEnd(bytes: Uint8Array, start: number, filter: string): number {
  switch (filter) {
    case 'DCT':
    case 'DCTDecode':
      return dctDataEnd(bytes, start);
    case 'A85':
    case 'ASCII85Decode':
      return ascii85DataEnd(bytes, start);
    case 'AHx':
    case 'ASCIIHexDecode': {
      const gt = bytes.indexOf(0x3e, start);
      return gt < 0 ? -1 : gt + 1;
    }
    default:
      return -1;
  }
}

/**
 * Past the end-of-image marker of DCT data, or -1, stepping over marker segments by their length
 * as pdf.js does. Declines where pdf.js would step back onto the same marker for ever (a marker
 * and its length cut by the end of the content).
 */
function dctDataEnd(bytes: Uint8Array, start: number): number {
  const length = bytes.length;
  const byteAt = (at: number) => (at < length ? (bytes[at] as number) : -1);
  let p = start;
  while (p < length) {
    const at = p;
    if (bytes[p++] !== 0xff) continue;
    const marker = byteAt(p);
    if (marker >= 0) p++;
    if (marker === 0xd9) return p;
    if (marker === 0xff) p--;
    else if (marker >= 0 && DCT_SEGMENT[marker] === 1) {
      const high = byteAt(p);
      if (high >= 0) p++;
      const low = byteAt(p);
      if (low >= 0) p++;
      const segment = high < 0 || low < 0 ? -1 : high * 256 + low;
      p += segment > 2 ? segment - 2 : -2;
      if (p <= at) unsupported('inline image end unclear');
    }
  }
  return -1;
}

/** Past ASCII85's `~>`, or at `EI` after a `~` and whitespace; -1 without either. */
function ascii85DataEnd(bytes: Uint8Array, start: number): number {
  const length = bytes.length;
  let p = start;
  while (p < length) {
    if (bytes[p++] !== 0x7e) continue;
    const tilde = p;
    while (p < length && isWhiteSpace(bytes[p])) p++;
    if (p < length && bytes[p] === 0x3e) return p + 1;
    if (p > tilde && bytes[p] === E && bytes[p + 1] === I) return p;
  }
  return -1;
}

/**
 * Past the next `EI` and the byte after it, or the end (pdf.js's `inlineStreamSkipEI`: an `E`
 * right after an `E` starts nothing).
 */
function skipEI(bytes: Uint8Array, from: number): number {
  let state = 0;
  let p = from;
  while (p < bytes.length) {
    const c = bytes[p++];
    if (state === 2) return p;
    state = state === 0 ? (c === E ? 1 : 0) : c === I ? 2 : 0;
  }
  return p;
}

/** Past whitespace and comments, up to `end`. */
function skipSpace(bytes: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const c = bytes[i] as number;
    if (SPECIAL[c] === 1) i++;
    else if (c === 0x25) {
      while (i < end && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++;
    } else break;
  }
  return i;
}

/** One value of an inline image's dictionary at `i`, and where it ends. */
function inlineValue(bytes: Uint8Array, i: number): [InlineValue, number] {
  const c = bytes[i] as number;
  if (c === 0x2f) {
    const start = i + 1;
    const end = nameEnd(bytes, start);
    if (end - start > MAX_TOKEN) unsupported('inline image name');
    return [{ kind: 'name', value: nameOf(bytes, start, end, hasEscape(bytes, start, end)) }, end];
  }
  if (c === 0x28) return [{ kind: 'other' }, skipString(bytes, i + 1)];
  if (c === 0x3c) {
    const end = bytes[i + 1] === 0x3c ? skipDict(bytes, i + 2) : skipHex(bytes, i + 1);
    return [{ kind: 'other' }, end];
  }
  if (c === 0x5b) {
    const items: (number | string | undefined)[] = [];
    let j = skipSpace(bytes, i + 1, bytes.length);
    while (bytes[j] !== 0x5d) {
      if (j >= bytes.length) unsupported('unterminated array');
      if (bytes[j] === 0x5b) {
        // An array in the array: skipped without recursion (only numbers and names are read),
        // so that arrays nested thousands deep do not overflow the stack.
        items.push(undefined);
        j = skipSpace(bytes, skipArray(bytes, j + 1), bytes.length);
        continue;
      }
      const [item, next] = inlineValue(bytes, j);
      items.push(item.kind === 'number' || item.kind === 'name' ? item.value : undefined);
      j = skipSpace(bytes, next, bytes.length);
    }
    return [{ kind: 'array', items }, j + 1];
  }
  const end = nameEnd(bytes, i);
  // Longer is no number pdf.js reads here (and too long to spread into a string).
  if (end - i > MAX_TOKEN) unsupported('inline image value');
  const word = String.fromCharCode(...bytes.subarray(i, end));
  if (word === 'true' || word === 'false')
    return [{ kind: 'boolean', value: word === 'true' }, end];
  const value = numberOf(bytes, i, end);
  if (value === undefined) unsupported('inline image value');
  return [{ kind: 'number', value }, end];
}

function nameEnd(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && SPECIAL[bytes[i] as number] === 0) i++;
  return i;
}

function hasEscape(bytes: Uint8Array, start: number, end: number): boolean {
  for (let k = start; k < end; k++) if (bytes[k] === 0x23) return true;
  return false;
}

/** A plain number (digits, one point, a sign) as pdf.js's lexer reads it, else `undefined`. */
function numberOf(bytes: Uint8Array, start: number, end: number): number | undefined {
  const text = String.fromCharCode(...bytes.subarray(start, end));
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : undefined;
}

/**
 * Where pdf.js's default search ends an inline image's data that starts at `start`: past `EI`
 * and the space or line end after it, when the next fifteen bytes are text (or a lone NUL) and
 * the next seventy-five start with operands and a known operator of that many operands. Declines
 * what would need pdf.js's recoveries (no such `EI`; a token cut by the seventy-five bytes).
 */
function inlineDataEnd(bytes: Uint8Array, start: number): number {
  const length = bytes.length;
  let state = 0;
  for (let p = start; p < length; p++) {
    const c = bytes[p] as number;
    if (state === 0) state = c === E ? 1 : 0;
    else if (state === 1) state = c === I ? 2 : 0;
    else if (c === 0x20 || c === 0x0a || c === 0x0d) {
      const after = p + 1;
      if (after >= length) return after;
      const peek = Math.min(after + 15, length);
      for (let k = after; k < peek; k++) {
        const b = bytes[k] as number;
        if (b === 0 && (k + 1 >= peek || bytes[k + 1] !== 0)) continue;
        if (b !== 0x0a && b !== 0x0d && (b < 0x20 || b > 0x7f)) {
          state = 0;
          break;
        }
      }
      if (state !== 2) continue;
      if (operatorFollows(bytes, after, Math.min(after + 75, length))) return after;
      state = 0;
    } else state = 0;
  }
  return unsupported('inline image without end');
}

/**
 * Whether pdf.js's lexer, over `bytes[from, to)`, meets a known operator with its operand count
 * before an unknown one, a bracket or the end. Declines what its lexer would throw on or what
 * the window cuts.
 */
function operatorFollows(bytes: Uint8Array, from: number, to: number): boolean {
  const cut = (end: number) => {
    if (end > to || (end === to && to < bytes.length)) unsupported('inline image end unclear');
    return end;
  };
  let args = 0;
  let i = from;
  for (;;) {
    i = skipSpace(bytes, i, to);
    if (i >= to) return false;
    const c = bytes[i] as number;
    if (c === 0x5b || c === 0x7b || c === 0x7d || c === 0x5d) return false;
    if (c === 0x3c && bytes[i + 1] === 0x3c) return false;
    if (c === 0x3e || c === 0x29) unsupported('inline image end unclear');
    if (c === 0x2f) i = cut(nameEnd(bytes, i + 1));
    else if (c === 0x28) i = cut(skipString(bytes, i + 1));
    else if (c === 0x3c) i = cut(skipHex(bytes, i + 1));
    else {
      const end = cut(nameEnd(bytes, i));
      if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
        if (numberOf(bytes, i, end) === undefined) unsupported('inline image end unclear');
        i = end;
      } else {
        const key = commandAt(bytes, i, end, 'inline image end unclear');
        i += commandLength(key);
        if (key === TRUE || key === FALSE || key === NULL) {
          args++;
          continue;
        }
        const spec = BY_KEY.get(key);
        if (!spec) return false;
        const [, arity, variable] = spec;
        if (variable ? args <= arity : args === arity) return true;
        args = 0;
        continue;
      }
    }
    args++;
  }
}

function nameOf(bytes: Uint8Array, start: number, end: number, escaped: boolean): string {
  if (!escaped) return String.fromCharCode(...bytes.subarray(start, end));
  let out = '';
  for (let k = start; k < end; k++) {
    const c = bytes[k] as number;
    if (c === 0x23 && k + 2 < end) {
      const hex = Number.parseInt(String.fromCharCode(bytes[k + 1] ?? 0, bytes[k + 2] ?? 0), 16);
      if (!Number.isNaN(hex)) {
        out += String.fromCharCode(hex);
        k += 2;
        continue;
      }
    }
    out += String.fromCharCode(c);
  }
  return out;
}

/** Past the `)` closing a literal string whose `(` is just before `i`. */
function skipString(bytes: Uint8Array, i: number): number {
  let depth = 1;
  const length = bytes.length;
  while (i < length) {
    const c = bytes[i];
    if (c === 0x5c) i += 2;
    else {
      i++;
      if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) return i;
    }
  }
  return unsupported('unterminated string');
}

/** Past the `>` closing a hex string. */
function skipHex(bytes: Uint8Array, i: number): number {
  const end = bytes.indexOf(0x3e, i);
  return end < 0 ? unsupported('unterminated hex string') : end + 1;
}

/** Past the `>>` closing a dictionary whose `<<` is just before `i`. */
function skipDict(bytes: Uint8Array, i: number): number {
  let depth = 1;
  const length = bytes.length;
  while (i < length) {
    const c = bytes[i];
    if (c === 0x28) i = skipString(bytes, i + 1);
    else if (c === 0x3c) {
      if (bytes[i + 1] === 0x3c) {
        depth++;
        i += 2;
      } else i = skipHex(bytes, i + 1);
    } else if (c === 0x3e) {
      if (bytes[i + 1] !== 0x3e) unsupported('stray >');
      i += 2;
      if (--depth === 0) return i;
    } else if (c === 0x25) {
      while (i < length && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++;
    } else i++;
  }
  return unsupported('unterminated dictionary');
}

/** Past the `]` closing an array whose `[` is just before `i`. */
function skipArray(bytes: Uint8Array, i: number): number {
  let depth = 1;
  const length = bytes.length;
  while (i < length) {
    const c = bytes[i];
    if (c === 0x28) i = skipString(bytes, i + 1);
    else if (c === 0x3c) i = bytes[i + 1] === 0x3c ? skipDict(bytes, i + 2) : skipHex(bytes, i + 1);
    else if (c === 0x5b) {
      depth++;
      i++;
    } else if (c === 0x5d) {
      i++;
      if (--depth === 0) return i;
    } else if (c === 0x25) {
      while (i < length && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++;
    } else i++;
  }
  return unsupported('unterminated array');
}
