import { deflateSync } from 'node:zlib';
import * as lib from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { lazyObjects } from '../../../../src/parse/formats/pdf/lazy-objects.ts';
import { openPageContent } from '../../../../src/parse/formats/pdf/page-content.ts';
import { parseObjectAt } from '../../../../src/parse/formats/pdf/pdf-object-parser.ts';
import { makeEncryptedPdf, makeReportPdf } from '../../../fixtures/parse/make-pdf.ts';

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);
const encode = (value: string) => Uint8Array.from(value, (c) => c.charCodeAt(0));

/** Page 3's content (objects 1 catalog, 2 pages, 3 page, 4 content), as written by `build`. */
function objects(content: string): string[] {
  return [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
}

/** A one-page PDF whose cross-reference data is an xref stream with a PNG "Up" predictor. */
function withPredictorXref(content: string): Uint8Array {
  let body = '%PDF-1.5\n';
  const offsets: number[] = [];
  for (const [index, object] of objects(content).entries()) {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  }
  const xrefAt = body.length;
  // Rows of W [1 2 1] for objects 0..5 (5 is the xref stream), each PNG-filtered "Up".
  const rows = [[0, 0, 0, 255], ...[...offsets, xrefAt].map((o) => [1, o >> 8, o & 255, 0])];
  const filtered: number[] = [];
  rows.forEach((row, r) => {
    filtered.push(2, ...row.map((v, c) => (v - (r > 0 ? (rows[r - 1]?.[c] ?? 0) : 0)) & 255));
  });
  const data = deflateSync(Uint8Array.from(filtered));
  const head = `5 0 obj\n<< /Type /XRef /Size 6 /W [1 2 1] /Root 1 0 R /Filter /FlateDecode /DecodeParms << /Columns 4 /Predictor 12 >> /Length ${data.length} >>\nstream\n`;
  const tail = `\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Uint8Array.from([...encode(body + head), ...data, ...encode(tail)]);
}

/** A classic-xref PDF with an incremental update replacing the page content. */
function withUpdate(first: string, second: string): Uint8Array {
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const [index, object] of objects(first).entries()) {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  }
  const xref1 = body.length;
  body += `xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref1}\n%%EOF\n`;
  const updated = body.length;
  body += `4 0 obj\n${objects(second)[3]}\nendobj\n`;
  const xref2 = body.length;
  body += `xref\n4 1\n${String(updated).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size 5 /Root 1 0 R /Prev ${xref1} >>\nstartxref\n${xref2}\n%%EOF\n`;
  return encode(body);
}

const PAGE = { num: 3, gen: 0 };

describe('lazyObjects and openPageContent', () => {
  it('read object streams and classic tables alike, as pdf-lib would', async () => {
    const { bytes } = await makeReportPdf({ pages: 3 });
    const classic = await (await lib.PDFDocument.load(bytes)).save({ useObjectStreams: false });
    for (const file of [bytes, classic]) {
      expect(lazyObjects(file)).toBeDefined();
      const doc = await lib.PDFDocument.load(file);
      const page = doc.getPages()[1];
      const ref = page?.ref;
      if (!ref) throw new Error('no page 2');
      // The page's content streams, decoded and joined as openPageContent joins them.
      const contents = doc.context.lookup(page.node.get(lib.PDFName.of('Contents')));
      const streams = contents instanceof lib.PDFArray ? contents.asArray() : [contents];
      const expected = streams
        .map((stream) => {
          const raw = stream instanceof lib.PDFRef ? doc.context.lookup(stream) : stream;
          if (!(raw instanceof lib.PDFRawStream)) throw new Error('not a stream');
          return text(lib.decodePDFRawStream(raw).decode());
        })
        .join('\n');
      const source = await openPageContent(file);
      const content = source?.page({ num: ref.objectNumber, gen: ref.generationNumber });
      expect(text(content?.content).trimEnd()).toBe(expected.trimEnd());
      expect(expected).toContain(' Tj');
    }
  });

  it('follows an xref stream with a PNG predictor', async () => {
    const file = withPredictorXref('0 0 m 100 0 l S');
    expect(lazyObjects(file)).toBeDefined();
    expect(text((await openPageContent(file))?.page(PAGE)?.content)).toBe('0 0 m 100 0 l S');
  });

  it('takes the newest object of an incrementally updated file', async () => {
    const file = withUpdate('0 0 m 10 0 l S', '0 0 m 20 0 l S');
    expect(text((await openPageContent(file))?.page(PAGE)?.content)).toBe('0 0 m 20 0 l S');
  });

  it('finds objects by scanning the file when the xref is unreadable', async () => {
    const good = withUpdate('0 0 m 10 0 l S', '0 0 m 20 0 l S');
    const broken = encode(text(good).replace(/startxref\n\d+\n%%EOF\n$/, 'startxref\n7\n%%EOF\n'));
    expect(lazyObjects(broken)).toBeDefined();
    // Scanned in file order: the update, later in the file, wins.
    expect(text((await openPageContent(broken))?.page(PAGE)?.content)).toBe('0 0 m 20 0 l S');
  });

  it('gives nothing for an encrypted file (its streams are encrypted)', async () => {
    expect(lazyObjects(makeEncryptedPdf())?.encrypted).toBe(true);
    expect(await openPageContent(makeEncryptedPdf())).toBeUndefined();
  });
});

describe('parseObjectAt', () => {
  it('reads dictionaries, references, names, numbers, strings and streams', () => {
    const source =
      '<< /Type /Page /Kids [3 0 R 4 0 R] /N -1.5 /A#20B 12 /S (a (b) \\) c) /H <00ff> /T true /Z null /D << /E [1 2] >> /Length 9 0 R >>\nstream\nabc\nendstream';
    const lengths = new Map([[9, 3]]);
    const object = parseObjectAt(encode(source), 0, (ref) => lengths.get(ref.num));
    if (
      typeof object !== 'object' ||
      object === null ||
      !('kind' in object) ||
      object.kind !== 'stream'
    ) {
      throw new Error('not a stream');
    }
    expect(text(object.raw)).toBe('abc');
    expect(Object.fromEntries(object.dict.entries)).toEqual({
      Type: 'Page',
      Kids: [
        { kind: 'ref', num: 3, gen: 0 },
        { kind: 'ref', num: 4, gen: 0 },
      ],
      N: -1.5,
      'A B': 12,
      S: { kind: 'string' },
      H: { kind: 'string' },
      T: true,
      Z: null,
      D: { kind: 'dict', entries: new Map([['E', [1, 2]]]) },
      Length: { kind: 'ref', num: 9, gen: 0 },
    });
  });
});
