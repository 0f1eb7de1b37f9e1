import { strToU8, type Zippable, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { detectFileType } from '../../src/files/detect-file-type.ts';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

/** A ZIP of `entries` (deflated; the first stored when `storeFirst`), as OOXML/ODF containers are. */
function zip(entries: Record<string, string>, options: { storeFirst?: boolean } = {}): Uint8Array {
  const files: Zippable = {};
  Object.entries(entries).forEach(([name, content], index) => {
    const level = options.storeFirst === true && index === 0 ? 0 : 6;
    files[name] = [strToU8(content), { level }];
  });
  return zipSync(files);
}

function cfb(streamName: string): Uint8Array {
  const bytes = new Uint8Array(2048);
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  const name = new Uint8Array(streamName.length * 2);
  for (let i = 0; i < streamName.length; i++) name[i * 2] = streamName.charCodeAt(i);
  bytes.set(name, 1024);
  return bytes;
}

describe('detectFileType: binary formats by magic bytes', () => {
  it.each([
    ['PDF', text('%PDF-1.7\n%\xe2\xe3\n1 0 obj'), 'PDF', 'application/pdf'],
    ['PDF after junk', text(`${' '.repeat(200)}%PDF-1.4\n`), 'PDF', 'application/pdf'],
    [
      'PNG',
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
      'IMG',
      'image/png',
    ],
    ['JPEG', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'IMG', 'image/jpeg'],
    ['GIF', text('GIF89a\x01\x00'), 'IMG', 'image/gif'],
    ['TIFF LE', new Uint8Array([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]), 'IMG', 'image/tiff'],
    ['TIFF BE', new Uint8Array([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]), 'IMG', 'image/tiff'],
    ['WebP', text('RIFF\x10\x00\x00\x00WEBPVP8 '), 'IMG', 'image/webp'],
  ] as const)('%s', (_label, bytes, type, mimeType) => {
    expect(detectFileType(bytes)).toEqual({ type, mimeType });
  });

  it('BMP by its DIB header size', () => {
    const bmp = new Uint8Array(64);
    bmp.set([0x42, 0x4d]);
    new DataView(bmp.buffer).setUint32(14, 40, true);
    expect(detectFileType(bmp)).toEqual({ type: 'IMG', mimeType: 'image/bmp' });
    // "BM" followed by prose is text, not a bitmap.
    expect(detectFileType(text('BMW is a car maker.\n')).type).toBe('TXT');
  });

  it('the extension never makes binary content a supported type', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    expect(detectFileType(png, 'report.pdf').type).toBe('IMG');
    expect(detectFileType(new Uint8Array([0, 1, 2, 3, 0, 0, 7]), 'notes.txt')).toEqual({
      type: null,
      mimeType: 'application/octet-stream',
    });
  });
});

describe('detectFileType: containers', () => {
  const contentTypes = '<?xml version="1.0"?><Types/>';

  it('tells DOCX, XLSX and PPTX apart by their parts', () => {
    const docx = zip({ '[Content_Types].xml': contentTypes, 'word/document.xml': '<w:document/>' });
    const xlsx = zip({ '[Content_Types].xml': contentTypes, 'xl/workbook.xml': '<workbook/>' });
    const pptx = zip({ '[Content_Types].xml': contentTypes, 'ppt/presentation.xml': '<p/>' });
    expect(detectFileType(docx, 'a.xlsx').type).toBe('DOCX');
    expect(detectFileType(xlsx).type).toBe('EXCEL');
    expect(detectFileType(pptx)).toEqual({
      type: null,
      mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    });
  });

  it('reports ODT by its mimetype entry, a plain zip as zip', () => {
    const odt = zip(
      { mimetype: 'application/vnd.oasis.opendocument.text', 'content.xml': '<x/>' },
      { storeFirst: true },
    );
    expect(detectFileType(odt)).toEqual({
      type: null,
      mimeType: 'application/vnd.oasis.opendocument.text',
    });
    expect(detectFileType(zip({ 'a.txt': 'hello' }))).toEqual({
      type: null,
      mimeType: 'application/zip',
    });
  });

  it('recognises a truncated DOCX from its local headers', () => {
    const docx = zip({ '[Content_Types].xml': contentTypes, 'word/document.xml': 'x'.repeat(500) });
    expect(detectFileType(docx.subarray(0, docx.length - 60)).type).toBe('DOCX');
  });

  it('reports OLE containers: encrypted OOXML and legacy Office', () => {
    expect(detectFileType(cfb('EncryptedPackage'))).toEqual({
      type: null,
      mimeType: 'application/x-cfb',
    });
    expect(detectFileType(cfb('WordDocument')).mimeType).toBe('application/msword');
    expect(detectFileType(cfb('Workbook')).mimeType).toBe('application/vnd.ms-excel');
  });
});

describe('detectFileType: text formats', () => {
  it.each([
    ['HTML document', '<!DOCTYPE html><html><body><p>Hi</p></body></html>', undefined, 'HTML'],
    ['HTML fragment', '<table><tr><td>1</td></tr></table>', undefined, 'HTML'],
    [
      'XHTML',
      '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"></html>',
      undefined,
      'HTML',
    ],
    [
      'XML with declaration',
      '<?xml version="1.0"?><invoice><total>10.00</total></invoice>',
      undefined,
      'XML',
    ],
    ['XML without declaration', '<invoice id="1"><total>10.00</total></invoice>', undefined, 'XML'],
    ['CSV commas', 'name,qty,price\nApple,3,1.20\nPear,5,0.80\n', undefined, 'CSV'],
    ['CSV semicolons', 'name;qty\nApple;3\nPear;5\n', undefined, 'CSV'],
    ['TSV', 'name\tqty\nApple\t3\nPear\t5\n', undefined, 'CSV'],
    ['pipes', 'a|b|c\n1|2|3\n', undefined, 'CSV'],
    ['quoted delimiters', 'name,comment\n"Smith, J","a, b"\nDoe,c\n', undefined, 'CSV'],
    [
      'prose',
      'Dear customer,\nThank you for your order.\nKind regards,\nThe team\n',
      undefined,
      'TXT',
    ],
    ['one-column CSV by extension', 'name\nApple\nPear\n', 'list.csv', 'CSV'],
    ['comma table named .txt', 'a,b\n1,2\n', 'notes.txt', 'TXT'],
    ['UTF-8 with BOM', '\uFEFFHello, world.\nSecond line here.', undefined, 'TXT'],
    ['empty file', '', undefined, 'TXT'],
  ] as const)('%s', (_label, value, name, type) => {
    expect(detectFileType(text(value), name).type).toBe(type);
  });

  it('gives text MIME types', () => {
    expect(detectFileType(text('a,b\n1,2\n3,4\n')).mimeType).toBe('text/csv');
    expect(detectFileType(text('hello')).mimeType).toBe('text/plain');
    expect(detectFileType(text('<note><b/></note>')).mimeType).toBe('application/xml');
    expect(detectFileType(text('<html></html>')).mimeType).toBe('text/html');
  });

  it('treats Windows-1252 bytes as text', () => {
    const latin1 = new Uint8Array([
      0x43, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x75, 0x76, 0x65, 0x72, 0x74,
    ]);
    expect(detectFileType(latin1).type).toBe('TXT');
  });

  it('reads only the head of a large file', () => {
    const big = new Uint8Array(50 * 1024 * 1024).fill(0x61);
    expect(detectFileType(big).type).toBe('TXT');
  });
});
