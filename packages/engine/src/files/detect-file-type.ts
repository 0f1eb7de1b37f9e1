import type { FileType } from '../step-executor.ts';

/** The outcome of {@link detectFileType}: the interface's File `type` (null when unsupported) and a MIME type. */
export interface DetectedFileType {
  /** The interface's File type, or null when the content is not a type PARSE supports. */
  readonly type: FileType | null;
  /** The content's MIME type, also for unsupported types (`application/msword`, …). */
  readonly mimeType: string;
}

const MIME = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  tiff: 'image/tiff',
  webp: 'image/webp',
  bmp: 'image/bmp',
  heic: 'image/heic',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  zip: 'application/zip',
  cfb: 'application/x-cfb',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  rtf: 'application/rtf',
  csv: 'text/csv',
  txt: 'text/plain',
  html: 'text/html',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  octet: 'application/octet-stream',
} as const;

/** How much of the head is inspected: detection must stay O(1) in the file size. */
const HEAD_BYTES = 64 * 1024;

/**
 * Detects a file's type from its content: magic bytes for binary formats, the entries of a ZIP
 * container for OOXML/ODF, the streams of an OLE container for legacy and encrypted Office, and
 * text heuristics for CSV, TXT, HTML and XML. The name's extension is only a tie-break between
 * text types (a `.csv` with one column is CSV, a `.txt` that happens to contain commas is TXT);
 * it never makes binary content a supported type. Pure and fast: it reads at most the first
 * 64 KiB and, for ZIPs, the central directory.
 *
 * @example
 * detectFileType(new TextEncoder().encode('a,b\n1,2\n'), 'data.csv'); // { type: 'CSV', mimeType: 'text/csv' }
 */
export function detectFileType(bytes: Uint8Array, name?: string): DetectedFileType {
  const binary = detectBinary(bytes);
  if (binary) return binary;
  return detectText(bytes, extensionOf(name));
}

function result(type: FileType | null, mimeType: string): DetectedFileType {
  return { type, mimeType };
}

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  for (let i = 0; i < signature.length; i++) {
    if (bytes[offset + i] !== signature[i]) return false;
  }
  return true;
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  const stop = Math.min(end, bytes.length);
  for (let i = start; i < stop; i++) out += String.fromCharCode(bytes[i] ?? 0);
  return out;
}

function indexOfBytes(bytes: Uint8Array, needle: Uint8Array, from = 0, to = bytes.length): number {
  const first = needle[0];
  const last = Math.min(to, bytes.length) - needle.length;
  outer: for (let i = from; i <= last; i++) {
    if (bytes[i] !== first) continue;
    for (let j = 1; j < needle.length; j++) {
      if (bytes[i + j] !== needle[j]) continue outer;
    }
    return i;
  }
  return -1;
}

function detectBinary(bytes: Uint8Array): DetectedFileType | undefined {
  // PDF readers accept the header anywhere in the first 1 KiB (junk before it is common).
  if (indexOfBytes(bytes, PDF_MAGIC, 0, 1024 + PDF_MAGIC.length) >= 0)
    return result('PDF', MIME.pdf);
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return result('IMG', MIME.png);
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return result('IMG', MIME.jpeg);
  const head6 = ascii(bytes, 0, 6);
  if (head6 === 'GIF87a' || head6 === 'GIF89a') return result('IMG', MIME.gif);
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) {
    return result('IMG', MIME.tiff);
  }
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return result('IMG', MIME.webp);
  if (isBmp(bytes)) return result('IMG', MIME.bmp);
  if (ascii(bytes, 4, 8) === 'ftyp') {
    const brand = ascii(bytes, 8, 12);
    if (['heic', 'heix', 'hevc', 'mif1', 'msf1', 'avif'].includes(brand)) {
      return result(null, brand === 'avif' ? 'image/avif' : MIME.heic);
    }
    return result(null, MIME.octet);
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return detectZip(bytes);
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return detectCfb(bytes);
  if (ascii(bytes, 0, 5) === '{\\rtf') return result(null, MIME.rtf);
  return undefined;
}

const PDF_MAGIC = new TextEncoder().encode('%PDF-');

function isBmp(bytes: Uint8Array): boolean {
  if (bytes.length < 26 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dibSize = view.getUint32(14, true);
  return [12, 40, 52, 56, 64, 108, 124].includes(dibSize);
}

function zipEntryNames(bytes: Uint8Array): string[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // End of central directory: 22 bytes plus a comment of up to 65535 bytes.
  const min = Math.max(0, bytes.length - 22 - 65535);
  for (let i = bytes.length - 22; i >= min; i--) {
    if (view.getUint32(i, true) !== 0x06054b50) continue;
    const count = view.getUint16(i + 10, true);
    let offset = view.getUint32(i + 16, true);
    const names: string[] = [];
    for (let n = 0; n < count && n < 20_000; n++) {
      if (offset + 46 > bytes.length || view.getUint32(offset, true) !== 0x02014b50)
        return undefined;
      const nameLength = view.getUint16(offset + 28, true);
      const extraLength = view.getUint16(offset + 30, true);
      const commentLength = view.getUint16(offset + 32, true);
      names.push(ascii(bytes, offset + 46, offset + 46 + nameLength));
      offset += 46 + nameLength + extraLength + commentLength;
    }
    return names;
  }
  return undefined;
}

const OOXML_MARKERS = [
  ['word/document.xml', 'DOCX', MIME.docx],
  ['xl/workbook.xml', 'EXCEL', MIME.xlsx],
  ['ppt/presentation.xml', null, MIME.pptx],
] as const;

function detectZip(bytes: Uint8Array): DetectedFileType {
  const names = zipEntryNames(bytes);
  if (names) {
    const set = new Set(names);
    for (const [marker, type, mime] of OOXML_MARKERS) {
      if (set.has(marker)) return result(type, mime);
    }
    // Some writers name the main part differently; [Content_Types].xml still says what it is.
    for (const entry of names) {
      if (entry.startsWith('word/')) return result('DOCX', MIME.docx);
      if (entry.startsWith('xl/')) return result('EXCEL', MIME.xlsx);
      if (entry.startsWith('ppt/')) return result(null, MIME.pptx);
    }
  } else {
    // A truncated container has no central directory: look for the part names in the local
    // headers, so that a damaged DOCX is reported as a damaged DOCX rather than as "a zip".
    const head = ascii(bytes, 0, Math.min(bytes.length, 1024 * 1024));
    for (const [marker, type, mime] of OOXML_MARKERS) {
      if (head.includes(marker)) return result(type, mime);
    }
  }
  // ODF: the first entry is an uncompressed `mimetype` file holding the MIME type.
  if (ascii(bytes, 30, 38) === 'mimetype') {
    const mime = ascii(bytes, 38, 38 + 80).match(/^application\/vnd\.oasis\.opendocument\.[a-z-]+/);
    if (mime) return result(null, mime[0]);
  }
  return result(null, MIME.zip);
}

function utf16(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) out[i * 2] = text.charCodeAt(i);
  return out;
}

const CFB_STREAMS = [
  [utf16('EncryptedPackage'), MIME.cfb],
  [utf16('WordDocument'), MIME.doc],
  [utf16('Workbook'), MIME.xls],
  [utf16('PowerPoint Document'), MIME.ppt],
] as const;

/**
 * OLE compound files: encrypted OOXML (an `EncryptedPackage` stream), or legacy .doc/.xls/.ppt.
 * Directory entries hold UTF-16LE stream names; searching for them avoids a full CFB reader.
 */
function detectCfb(bytes: Uint8Array): DetectedFileType {
  const ranges = cfbDirectoryRanges(bytes);
  for (const [needle, mime] of CFB_STREAMS) {
    for (const [from, to] of ranges) {
      if (indexOfBytes(bytes, needle, from, to) >= 0) return result(null, mime);
    }
  }
  return result(null, MIME.cfb);
}

/**
 * Where the directory entries are: from the first directory sector named in the header (64 KiB
 * of it), and the first MiB as a fallback. Keeps detection bounded on a 100 MB .doc.
 */
function cfbDirectoryRanges(bytes: Uint8Array): [number, number][] {
  const ranges: [number, number][] = [[0, Math.min(bytes.length, 1024 * 1024)]];
  if (bytes.length >= 52) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const sectorSize = 2 ** view.getUint16(30, true);
    const first = view.getUint32(48, true);
    if (sectorSize >= 128 && sectorSize <= 65536 && first < 0xfffffffa) {
      const start = (first + 1) * sectorSize;
      if (start < bytes.length) ranges.unshift([start, Math.min(bytes.length, start + 64 * 1024)]);
    }
  }
  return ranges;
}

function extensionOf(name: string | undefined): string {
  if (!name) return '';
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Decodes the head as UTF-8 (or UTF-16 with a BOM); undefined when it is not text. */
function decodeTextHead(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, HEAD_BYTES);
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) {
    return new TextDecoder(head[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(head);
  }
  let controls = 0;
  for (const byte of head) {
    if (byte === 0) return undefined;
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) controls++;
  }
  if (controls > head.length / 100 + 1) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(head);
  } catch {
    // A cut inside a multi-byte sequence at the end of the head is not a decoding error.
    const lenient = new TextDecoder('utf-8').decode(head);
    const replaced = lenient.split('\uFFFD').length - 1;
    // Not UTF-8: single-byte text (Latin-1, Windows-1252) is still text.
    return replaced <= 4 || controls === 0 ? lenient : undefined;
  }
}

const HTML_TAG =
  /<(html|head|body|div|p|span|table|tr|td|th|h[1-6]|ul|ol|li|a|br|img|meta|title|section|article|main|header|footer|nav|form|strong|em|b|i)[\s>/]/i;

function detectText(bytes: Uint8Array, extension: string): DetectedFileType {
  if (bytes.length === 0) return result('TXT', MIME.txt);
  const decoded = decodeTextHead(bytes);
  if (decoded === undefined) return result(null, MIME.octet);
  const text = decoded.replace(/^\uFEFF/, '');
  const trimmed = text.trimStart();
  const lower = trimmed.slice(0, 2048).toLowerCase();

  if (lower.startsWith('<!doctype html') || lower.startsWith('<html'))
    return result('HTML', MIME.html);
  if (
    lower.startsWith('<?xml') ||
    (lower.startsWith('<') && /^<[a-z_][\w:.-]*[\s>/]/i.test(lower))
  ) {
    if (/<html[\s>]/.test(lower) || lower.includes('http://www.w3.org/1999/xhtml')) {
      return result('HTML', MIME.html);
    }
    if (/<svg[\s>]/.test(lower)) return result(null, MIME.svg);
    // A fragment of HTML elements (`<p>…`, `<table>…`) rather than an XML document.
    const firstTag = /^<([a-z][\w:.-]*)/.exec(lower)?.[0] ?? '';
    if (!lower.startsWith('<?xml') && HTML_TAG.test(`${firstTag} `) && extension !== 'xml') {
      return result('HTML', MIME.html);
    }
    return result('XML', MIME.xml);
  }
  if (lower.startsWith('<!--') || lower.startsWith('<!doctype')) {
    if (lower.includes('<html') || HTML_TAG.test(lower)) return result('HTML', MIME.html);
    return result('XML', MIME.xml);
  }

  if (extension === 'html' || extension === 'htm') {
    if (HTML_TAG.test(lower)) return result('HTML', MIME.html);
  }
  if (looksDelimited(text, extension)) return result('CSV', MIME.csv);
  return result('TXT', MIME.txt);
}

const DELIMITERS = [',', ';', '\t', '|'] as const;

/** Counts a delimiter outside double quotes, per line. */
function delimiterCounts(lines: readonly string[], delimiter: string): number[] {
  return lines.map((line) => {
    let count = 0;
    let quoted = false;
    for (const ch of line) {
      if (ch === '"') quoted = !quoted;
      else if (ch === delimiter && !quoted) count++;
    }
    return count;
  });
}

/**
 * A table of text: some delimiter occurs the same non-zero number of times on most lines.
 * Prose has commas too, so one line is not enough unless the extension says CSV/TSV.
 */
function looksDelimited(text: string, extension: string): boolean {
  const csvExtension = extension === 'csv' || extension === 'tsv';
  if (extension === 'txt' || extension === 'md' || extension === 'log') return false;
  const lines = text
    .split(/\r\n|\n|\r/)
    .slice(0, 50)
    .filter((line) => line.trim() !== '');
  // The head may end mid-line.
  if (lines.length > 1 && text.length >= HEAD_BYTES) lines.pop();
  if (lines.length === 0) return false;
  for (const delimiter of DELIMITERS) {
    const counts = delimiterCounts(lines, delimiter);
    const first = counts[0] ?? 0;
    if (first === 0) continue;
    const same = counts.filter((count) => count === first).length;
    if (lines.length === 1) {
      if (csvExtension) return true;
      continue;
    }
    if (same / lines.length >= 0.8) {
      // Sentences with a constant number of commas are rare, but long lines with few
      // delimiters are prose: demand short fields.
      const averageLength = lines.reduce((sum, line) => sum + line.length, 0) / lines.length;
      if (csvExtension || averageLength / (first + 1) < 60) return true;
    }
  }
  return csvExtension;
}
