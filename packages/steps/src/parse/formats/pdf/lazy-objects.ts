import { inflateSync } from 'node:zlib';
import type { PDFArray, PDFContext, PDFDict, PDFObject, PDFRawStream, PDFRef } from 'pdf-lib';

type PdfLib = typeof import('pdf-lib');

/** Objects of a document, parsed when first looked up. */
export interface LazyObjects {
  /** A pdf-lib context whose `lookup` parses objects on demand. */
  readonly context: PDFContext;
  /** The document has an /Encrypt dictionary (its streams are encrypted). */
  readonly encrypted: boolean;
}

interface Entry {
  /** 1: at `offset` in the file; 2: number `index` of object stream `offset`. */
  readonly type: 1 | 2;
  readonly offset: number;
  readonly index: number;
}

/** Not a cross-reference layout this reader follows: the caller parses the whole file. */
class Unreadable extends Error {}

const MAX_SECTIONS = 64;

/**
 * Reads a PDF's cross-reference sections (tables, streams, hybrids, /Prev chains) and returns a
 * pdf-lib context that parses each object only when it is looked up, instead of pdf-lib's
 * `PDFDocument.load`, which parses every object of the file first (most of the content reader's
 * cost on a large document). `undefined` when the cross-reference data is not readable this way.
 */
export function lazyObjects(bytes: Uint8Array, lib: PdfLib): LazyObjects | undefined {
  try {
    return open(bytes, lib);
  } catch {
    return undefined;
  }
}

function open(bytes: Uint8Array, lib: PdfLib): LazyObjects {
  const { PDFContext, PDFDict, PDFName, PDFNumber, PDFObjectParser, PDFRawStream, PDFRef } = lib;
  const context = PDFContext.create();
  const entries = new Map<number, Entry>();
  const objectStreams = new Map<number, { data: Uint8Array; offsets: Map<number, number> }>();
  const parseAt = (data: Uint8Array, offset: number): PDFObject =>
    PDFObjectParser.forBytes(data.subarray(offset), context).parseObject();

  /** The object of an indirect definition `n g obj ...` starting at `offset`. */
  const indirect = (offset: number, expected?: number): PDFObject => {
    const header = /^\s*(\d+)\s+(\d+)\s+obj\b/.exec(ascii(bytes, offset, 40));
    if (!header?.[1] || (expected !== undefined && Number(header[1]) !== expected)) {
      throw new Unreadable('object header');
    }
    return parseAt(bytes, offset + header[0].length);
  };

  const number = (dict: PDFDict, key: string): number | undefined => {
    const value = dict.get(PDFName.of(key));
    return value instanceof PDFNumber ? value.asNumber() : undefined;
  };

  let trailer: PDFDict | undefined;
  const seen = new Set<number>();
  const section = (offset: number): void => {
    if (seen.has(offset) || seen.size >= MAX_SECTIONS) throw new Unreadable('xref loop');
    seen.add(offset);
    let dict: PDFDict;
    const head = ascii(bytes, offset, 16);
    if (/^\s*xref/.test(head)) {
      let at = offset + head.indexOf('xref') + 4;
      for (;;) {
        const sub = /^\s*(\d+)\s+(\d+)\s*[\r\n]/.exec(ascii(bytes, at, 40));
        if (!sub) break;
        at += sub[0].length;
        const first = Number(sub[1]);
        const count = Number(sub[2]);
        for (let k = 0; k < count; k++) {
          const row = /^\s*(\d{1,10})\s+(\d{1,5})\s+([nf])/.exec(ascii(bytes, at, 40));
          if (!row) throw new Unreadable('xref row');
          at += row[0].length;
          if (row[3] === 'n' && !entries.has(first + k)) {
            entries.set(first + k, { type: 1, offset: Number(row[1]), index: 0 });
          }
        }
      }
      const rest = ascii(bytes, at, 64);
      const keyword = rest.indexOf('trailer');
      if (keyword < 0) throw new Unreadable('no trailer');
      const parsed = parseAt(bytes, at + keyword + 7);
      if (!(parsed instanceof PDFDict)) throw new Unreadable('trailer');
      dict = parsed;
      trailer ??= dict;
      // A hybrid file: its compressed objects are listed in a stream the table points to.
      const hybrid = number(dict, 'XRefStm');
      if (hybrid !== undefined) section(hybrid);
    } else {
      const stream = indirect(offset);
      if (!(stream instanceof PDFRawStream)) throw new Unreadable('xref stream');
      dict = stream.dict;
      streamEntries(stream);
    }
    trailer ??= dict;
    const previous = number(dict, 'Prev');
    if (previous !== undefined) section(previous);
  };

  const streamEntries = (stream: PDFRawStream): void => {
    const { dict } = stream;
    const widths = dict.lookup(PDFName.of('W'));
    const w = widths ? (widths as PDFArray).asArray() : [];
    const [t = 0, o = 0, g = 0] = w.map((n) => (n instanceof PDFNumber ? n.asNumber() : -1));
    if (w.length !== 3 || t < 0 || o < 0 || g < 0 || o > 6) throw new Unreadable('xref widths');
    const index = dict.lookup(PDFName.of('Index'));
    const ranges = index
      ? (index as PDFArray)
          .asArray()
          .map((n) => (n instanceof PDFNumber ? n.asNumber() : Number.NaN))
      : [0, number(dict, 'Size') ?? 0];
    const data = decodeStream(stream, lib);
    const rowLength = t + o + g;
    let at = 0;
    for (let r = 0; r + 1 < ranges.length; r += 2) {
      const first = ranges[r] as number;
      const count = ranges[r + 1] as number;
      if (!Number.isInteger(first) || !Number.isInteger(count)) throw new Unreadable('xref index');
      for (let k = 0; k < count; k++, at += rowLength) {
        if (at + rowLength > data.length) throw new Unreadable('xref stream short');
        const type = t === 0 ? 1 : field(data, at, t);
        const offset = field(data, at + t, o);
        const index = field(data, at + t + o, g);
        if ((type === 1 || type === 2) && !entries.has(first + k)) {
          entries.set(first + k, { type, offset, index });
        }
      }
    }
  };

  // The last startxref: an incrementally updated file has one per revision.
  const tail = ascii(bytes, Math.max(0, bytes.length - 1024), 1024);
  const start = /^startxref\s+(\d+)/.exec(tail.slice(tail.lastIndexOf('startxref')));
  if (!start?.[1]) throw new Unreadable('no startxref');
  section(Number(start[1]));
  if (!(trailer instanceof PDFDict)) throw new Unreadable('no trailer');

  const fetch = (ref: PDFRef): PDFObject | undefined => {
    const entry = entries.get(ref.objectNumber);
    if (!entry) return undefined;
    if (entry.type === 1) return indirect(entry.offset, ref.objectNumber);
    let holder = objectStreams.get(entry.offset);
    if (!holder) {
      const stream = lookup(PDFRef.of(entry.offset));
      if (!(stream instanceof PDFRawStream)) throw new Unreadable('object stream');
      const data = decodeStream(stream, lib);
      const count = number(stream.dict, 'N') ?? 0;
      const first = number(stream.dict, 'First') ?? 0;
      const pairs = ascii(data, 0, first).trim().split(/\s+/).map(Number);
      const offsets = new Map<number, number>();
      for (let k = 0; k < count; k++) {
        offsets.set(pairs[2 * k] as number, first + (pairs[2 * k + 1] as number));
      }
      holder = { data, offsets };
      objectStreams.set(entry.offset, holder);
    }
    const at = holder.offsets.get(ref.objectNumber);
    return at === undefined ? undefined : parseAt(holder.data, at);
  };

  // This context's own lookup parses what it has not seen yet, so that pdf-lib's dictionaries
  // resolve references (theirs go through `context.lookup`) as if the whole file had been read.
  const fetched = new Set<number>();
  const original = context.lookup.bind(context);
  const lookup = (ref: PDFRef): PDFObject | undefined => {
    if (!fetched.has(ref.objectNumber)) {
      fetched.add(ref.objectNumber);
      const object = fetch(ref);
      if (object !== undefined) context.assign(ref, object);
    }
    return original(ref);
  };
  context.lookup = ((value: unknown, ...types: unknown[]) => {
    if (value instanceof PDFRef) lookup(value);
    return (original as (...args: unknown[]) => unknown)(value, ...types);
  }) as PDFContext['lookup'];
  return { context, encrypted: trailer.get(PDFName.of('Encrypt')) !== undefined };
}

function field(data: Uint8Array, at: number, width: number): number {
  let value = 0;
  for (let k = 0; k < width; k++) value = value * 256 + (data[at + k] as number);
  return value;
}

const latin1 = new TextDecoder('latin1');

function ascii(data: Uint8Array, at: number, length: number): string {
  return latin1.decode(data.subarray(at, at + length));
}

/** A cross-reference or object stream's data: FlateDecode, with or without a PNG predictor. */
function decodeStream(stream: PDFRawStream, lib: PdfLib): Uint8Array {
  const { PDFDict, PDFName, PDFNumber } = lib;
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  if (filter !== undefined && filter !== PDFName.of('FlateDecode')) {
    throw new Unreadable('filter');
  }
  const data = filter === undefined ? stream.contents : inflateSync(stream.contents);
  const params = stream.dict.lookup(PDFName.of('DecodeParms'));
  if (!(params instanceof PDFDict)) return data;
  const value = (key: string, fallback: number) => {
    const n = params.lookup(PDFName.of(key));
    return n instanceof PDFNumber ? n.asNumber() : fallback;
  };
  const predictor = value('Predictor', 1);
  if (predictor === 1) return data;
  if (predictor < 10 || value('Colors', 1) !== 1 || value('BitsPerComponent', 8) !== 8) {
    throw new Unreadable('predictor');
  }
  return unPng(data, value('Columns', 1));
}

/** Undoes PNG row filters (one byte per pixel). */
function unPng(data: Uint8Array, columns: number): Uint8Array {
  const rows = Math.floor(data.length / (columns + 1));
  const out = new Uint8Array(rows * columns);
  for (let r = 0; r < rows; r++) {
    const filter = data[r * (columns + 1)];
    const src = r * (columns + 1) + 1;
    const dst = r * columns;
    for (let c = 0; c < columns; c++) {
      const raw = data[src + c] as number;
      const left = c > 0 ? (out[dst + c - 1] as number) : 0;
      const up = r > 0 ? (out[dst - columns + c] as number) : 0;
      const upLeft = r > 0 && c > 0 ? (out[dst - columns + c - 1] as number) : 0;
      let value = raw;
      if (filter === 1) value = raw + left;
      else if (filter === 2) value = raw + up;
      else if (filter === 3) value = raw + ((left + up) >> 1);
      else if (filter === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        value = raw + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
      } else if (filter !== 0) throw new Unreadable('png filter');
      out[dst + c] = value & 0xff;
    }
  }
  return out;
}
