import { inflateSync, constants as zlib } from 'node:zlib';
import {
  entry,
  isDict,
  isRef,
  isStream,
  MalformedObject,
  type PdfDict,
  type PdfRef,
  type PdfStream,
  type PdfValue,
  parseObjectAt,
} from './pdf-object-parser.ts';
import { inflatedByPdfJs } from './zlib-inflate.ts';

/** Objects of a document, parsed when first looked up. */
export interface LazyObjects {
  /** The object a reference points to (`undefined`: none); throws on malformed data. */
  lookup(ref: PdfRef): PdfValue | undefined;
  /** The document has an /Encrypt dictionary (its streams are encrypted). */
  readonly encrypted: boolean;
}

interface Entry {
  /** 1: at `offset` in the file; 2: number `index` of object stream `offset`. */
  readonly type: 1 | 2;
  readonly offset: number;
}

const MAX_SECTIONS = 64;
/** Above this size a file with a broken xref is not scanned for objects (pdf.js still reads it). */
const MAX_SCAN_BYTES = 64 * 1024 * 1024;
const latin1 = new TextDecoder('latin1');

/**
 * Reads a PDF's cross-reference sections (tables, streams, hybrids, /Prev chains) and parses
 * each object only when it is looked up, instead of parsing the whole file first; where the
 * cross-reference data is unreadable, objects are found by scanning the file for `n g obj`.
 * `undefined` when neither works.
 */
export function lazyObjects(bytes: Uint8Array): LazyObjects | undefined {
  const entries = new Map<number, Entry>();
  const cache = new Map<number, PdfValue | undefined>();
  const objectStreams = new Map<number, { data: Uint8Array; offsets: Map<number, number> }>();

  const indirect = (offset: number, expected?: number): PdfValue => {
    const header = /^\s*(\d+)\s+(\d+)\s+obj\b/.exec(ascii(bytes, offset, 40));
    if (!header?.[1] || (expected !== undefined && Number(header[1]) !== expected)) {
      throw new MalformedObject('object header');
    }
    return parseObjectAt(bytes, offset + header[0].length, lookup);
  };

  const lookup = (ref: PdfRef): PdfValue | undefined => {
    if (cache.has(ref.num)) return cache.get(ref.num);
    // Marked first: a stream whose /Length refers back to itself finds nothing.
    cache.set(ref.num, undefined);
    const found = fetch(ref.num);
    cache.set(ref.num, found);
    return found;
  };

  const fetch = (num: number): PdfValue | undefined => {
    const at = entries.get(num);
    if (!at) return undefined;
    if (at.type === 1) return indirect(at.offset, num);
    const holder = objectStream(at.offset);
    const offset = holder?.offsets.get(num);
    return holder && offset !== undefined ? parseObjectAt(holder.data, offset, lookup) : undefined;
  };

  const objectStream = (num: number) => {
    let holder = objectStreams.get(num);
    if (!holder) {
      const stream = lookup({ kind: 'ref', num, gen: 0 });
      const data = isStream(stream) ? decodeStream(stream) : undefined;
      if (!isStream(stream) || !data) return undefined;
      const count = entry(stream.dict, 'N');
      const first = entry(stream.dict, 'First');
      if (typeof count !== 'number' || typeof first !== 'number') return undefined;
      const pairs = ascii(data, 0, first).trim().split(/\s+/).map(Number);
      const offsets = new Map<number, number>();
      for (let k = 0; k < count; k++) {
        offsets.set(pairs[2 * k] as number, first + (pairs[2 * k + 1] as number));
      }
      holder = { data, offsets };
      objectStreams.set(num, holder);
    }
    return holder;
  };

  let trailer: PdfDict | undefined;
  try {
    trailer = readSections(bytes, entries, indirect);
  } catch {
    entries.clear();
    trailer = undefined;
  }
  if (!trailer) {
    if (bytes.length > MAX_SCAN_BYTES) return undefined;
    const text = latin1.decode(bytes);
    // Later definitions win, as in an incrementally updated file.
    for (const match of text.matchAll(/(?:^|[\s>])(\d+)\s+\d+\s+obj\b/g)) {
      const at = (match.index ?? 0) + match[0].indexOf(match[1] ?? '');
      entries.set(Number(match[1]), { type: 1, offset: at });
    }
    if (entries.size === 0) return undefined;
    return { lookup, encrypted: /\/Encrypt\b/.test(text) };
  }
  return { lookup, encrypted: entry(trailer, 'Encrypt') !== undefined };
}

/** Fills `entries` from the newest section back; returns the newest trailer. */
function readSections(
  bytes: Uint8Array,
  entries: Map<number, Entry>,
  indirect: (offset: number) => PdfValue,
): PdfDict | undefined {
  // The last startxref: an incrementally updated file has one per revision.
  const tail = ascii(bytes, Math.max(0, bytes.length - 1024), 1024);
  const start = /^startxref\s+(\d+)/.exec(tail.slice(tail.lastIndexOf('startxref')));
  if (!start?.[1]) return undefined;
  let trailer: PdfDict | undefined;
  const seen = new Set<number>();
  const section = (offset: number): void => {
    if (seen.has(offset) || seen.size >= MAX_SECTIONS) throw new MalformedObject('xref loop');
    seen.add(offset);
    let dict: PdfDict;
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
          if (!row) throw new MalformedObject('xref row');
          at += row[0].length;
          if (row[3] === 'n' && !entries.has(first + k)) {
            entries.set(first + k, { type: 1, offset: Number(row[1]) });
          }
        }
      }
      const keyword = ascii(bytes, at, 64).indexOf('trailer');
      if (keyword < 0) throw new MalformedObject('no trailer');
      const parsed = parseObjectAt(bytes, at + keyword + 7);
      if (!isDict(parsed)) throw new MalformedObject('trailer');
      dict = parsed;
      trailer ??= dict;
      // A hybrid file: its compressed objects are listed in a stream the table points to.
      const hybrid = entry(dict, 'XRefStm');
      if (typeof hybrid === 'number') section(hybrid);
    } else {
      const stream = indirect(offset);
      if (!isStream(stream)) throw new MalformedObject('xref stream');
      dict = stream.dict;
      trailer ??= dict;
      streamEntries(stream, entries);
    }
    const previous = entry(dict, 'Prev');
    if (typeof previous === 'number') section(previous);
  };
  section(Number(start[1]));
  return trailer;
}

function streamEntries(stream: PdfStream, entries: Map<number, Entry>): void {
  const widths = entry(stream.dict, 'W');
  const w = Array.isArray(widths) ? widths : [];
  const [t = -1, o = -1, g = -1] = w.map((n) => (typeof n === 'number' ? n : -1));
  if (w.length !== 3 || t < 0 || o < 0 || g < 0 || o > 6) throw new MalformedObject('xref W');
  const index = entry(stream.dict, 'Index');
  const size = entry(stream.dict, 'Size');
  const ranges = Array.isArray(index) ? index : [0, typeof size === 'number' ? size : 0];
  const data = decodeStream(stream);
  if (!data) throw new MalformedObject('xref data');
  const rowLength = t + o + g;
  let at = 0;
  for (let r = 0; r + 1 < ranges.length; r += 2) {
    const first = ranges[r];
    const count = ranges[r + 1];
    if (typeof first !== 'number' || typeof count !== 'number') {
      throw new MalformedObject('xref Index');
    }
    for (let k = 0; k < count; k++, at += rowLength) {
      if (at + rowLength > data.length) throw new MalformedObject('xref stream short');
      const type = t === 0 ? 1 : field(data, at, t);
      const offset = field(data, at + t, o);
      if ((type === 1 || type === 2) && !entries.has(first + k)) {
        entries.set(first + k, { type, offset });
      }
    }
  }
}

function field(data: Uint8Array, at: number, width: number): number {
  let value = 0;
  for (let k = 0; k < width; k++) value = value * 256 + (data[at + k] as number);
  return value;
}

function ascii(data: Uint8Array, at: number, length: number): string {
  return latin1.decode(data.subarray(at, at + length));
}

/**
 * A stream's decoded data: no filter, or FlateDecode (with or without a PNG predictor).
 * `undefined` for other filters and for data zlib rejects: pdf.js then reads that page itself.
 */
export function decodeStream(stream: PdfStream): Uint8Array | undefined {
  const filter = entry(stream.dict, 'Filter');
  const filters = Array.isArray(filter) ? filter : filter === undefined ? [] : [filter];
  if (filters.length > 1 || (filters.length === 1 && filters[0] !== 'FlateDecode')) {
    return undefined;
  }
  let data: Uint8Array;
  try {
    data =
      filters.length === 0
        ? stream.raw
        : // What zlib made of the same bytes for pdf.js reading this page, else tolerant of a
          // missing end, as pdf.js is.
          (inflatedByPdfJs(stream.raw) ??
          inflateSync(stream.raw, { finishFlush: zlib.Z_SYNC_FLUSH }));
  } catch {
    return undefined;
  }
  let params = entry(stream.dict, 'DecodeParms');
  if (Array.isArray(params)) params = params[0];
  if (params === undefined || params === null) return data;
  if (!isDict(params) || isRef(params)) return undefined;
  const value = (key: string, fallback: number) => {
    const n = entry(params, key);
    return typeof n === 'number' ? n : fallback;
  };
  const predictor = value('Predictor', 1);
  if (predictor === 1) return data;
  if (predictor < 10 || value('Colors', 1) !== 1 || value('BitsPerComponent', 8) !== 8) {
    return undefined;
  }
  return unPng(data, value('Columns', 1));
}

/** Undoes PNG row filters (one byte per pixel); `undefined` for an unknown filter type. */
function unPng(data: Uint8Array, columns: number): Uint8Array | undefined {
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
      } else if (filter !== 0) return undefined;
      out[dst + c] = value & 0xff;
    }
  }
  return out;
}
