import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ContentResources,
  type ContentXObject,
  readContentGraphics,
  UnsupportedContent,
} from '../../../../src/parse/formats/pdf/content-graphics.ts';
import { openPageContent } from '../../../../src/parse/formats/pdf/page-content.ts';
import {
  graphicsSink,
  type PageGraphics,
  readPageGraphics,
} from '../../../../src/parse/formats/pdf/page-graphics.ts';
import { openPdf, type PdfDocument } from '../../../../src/parse/formats/pdf/scan-page.ts';
import { type GraphicsPage, makeGraphicsPdf } from '../../../fixtures/parse/make-graphics-pdf.ts';

const identity = (x: number, y: number): [number, number] => [x, y];
const bytesOf = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

function read(content: string, xobjects: Record<string, ContentXObject> = {}): PageGraphics {
  const sink = graphicsSink(identity);
  readContentGraphics(bytesOf(content), resources(xobjects), sink);
  return sink.graphics;
}

function resources(xobjects: Record<string, ContentXObject>): ContentResources {
  return { xobject: (name) => xobjects[name] ?? { kind: 'other' } };
}

/** Same segments and images, to float32 precision (pdf.js folds some transforms into paths). */
function expectSameGraphics(actual: PageGraphics, expected: PageGraphics): void {
  expect(actual.segments.map((s) => s.kind)).toEqual(expected.segments.map((s) => s.kind));
  actual.segments.forEach((segment, i) => {
    const other = expected.segments[i];
    expect(segment.at).toBeCloseTo(other?.at ?? Number.NaN, 3);
    expect(segment.from).toBeCloseTo(other?.from ?? Number.NaN, 3);
    expect(segment.to).toBeCloseTo(other?.to ?? Number.NaN, 3);
  });
  expect(actual.images).toHaveLength(expected.images.length);
  actual.images.forEach((box, i) => {
    const other = expected.images[i];
    for (const side of ['left', 'top', 'right', 'bottom'] as const) {
      expect(box[side]).toBeCloseTo(other?.[side] ?? Number.NaN, 3);
    }
  });
}

describe('readContentGraphics against pdf.js operator lists', { timeout: 60_000 }, () => {
  let pdf: { bytes: Uint8Array; pages: GraphicsPage[] };
  let doc: PdfDocument;
  beforeAll(async () => {
    pdf = await makeGraphicsPdf();
    doc = await (await openPdf(pdf.bytes)).promise;
  });

  it('finds what the operator list finds, or declines the page', async () => {
    const source = await openPageContent(pdf.bytes);
    if (!source) throw new Error('pdf-lib could not open the fixture');
    for (const [index, expected] of pdf.pages.entries()) {
      const page = await doc.getPage(index + 1);
      const reference = readPageGraphics(
        await page.getOperatorList({ intent: 'display', annotationMode: 0 }),
        identity,
      );
      const content = source.page(page.ref);
      if (!content) throw new Error(`no content for page ${index + 1}`);
      const sink = graphicsSink(identity);
      let declined = false;
      try {
        readContentGraphics(content.content, content.resources, sink);
      } catch (error) {
        if (!(error instanceof UnsupportedContent)) throw error;
        declined = true;
      }
      expect({ page: expected.name, declined }).toEqual({
        page: expected.name,
        declined: expected.unsupported,
      });
      if (!declined) {
        expect(reference.segments.length + reference.images.length).toBeGreaterThan(0);
        expectSameGraphics(sink.graphics, reference);
      }
    }
  });
});

describe('readContentGraphics', () => {
  it('reads strokes and thin fills as rules through cm and q/Q', () => {
    const { segments } = read(
      'q 1 0 0 1 10 20 cm 0 0 m 100 0 l S Q 0 0 m 0 50 l S q 2 0 0 2 0 0 cm 5 5 40 1 re f Q',
    );
    expect(segments).toEqual([
      { kind: 'h', at: 20, from: 10, to: 110 },
      { kind: 'v', at: 0, from: 0, to: 50 },
      { kind: 'h', at: 11, from: 10, to: 90 },
    ]);
  });

  it('closes the path for s and b but not for S', () => {
    expect(read('0 0 m 100 0 l 100 50 l S').segments).toHaveLength(2);
    expect(read('0 0 m 100 0 l 100 50 l 0 50 l s').segments).toHaveLength(4);
  });

  it('places images and follows forms with their matrix and their own resources', () => {
    const image: ContentXObject = { kind: 'image', width: 4, height: 4, imageMask: false };
    const form: ContentXObject = {
      kind: 'form',
      matrix: [1, 0, 0, 1, 100, 0],
      content: bytesOf('0 0 m 50 0 l S q 10 0 0 10 0 0 cm /Inner Do Q'),
      resources: resources({ Inner: image }),
    };
    const graphics = read('q 2 0 0 2 0 0 cm /Fm Do Q /Im Do', { Fm: form, Im: image });
    expect(graphics.segments).toEqual([{ kind: 'h', at: 0, from: 200, to: 300 }]);
    expect(graphics.images).toEqual([
      { left: 200, top: 0, right: 220, bottom: 20 },
      { left: 0, top: 0, right: 1, bottom: 1 },
    ]);
  });

  it('skips what pdf.js skips: images without dimensions, missing XObjects, null operands', () => {
    const broken: ContentXObject = { kind: 'image', width: 0, height: 4, imageMask: false };
    const graphics = read('/Broken Do /Missing Do null 0 0 m 10 0 l S', { Broken: broken });
    expect(graphics).toEqual({ segments: [{ kind: 'h', at: 0, from: 0, to: 10 }], images: [] });
  });

  it('steps over an inline image where pdf.js ends it, whatever its data holds', () => {
    const graphics = read(
      'q 10 0 0 10 100 100 cm BI /W 8 /H 1 /BPC 8 /CS /G ID EI\x80\x81EI \x90\x91 EI Q 0 0 m 10 0 l S',
    );
    expect(graphics.images).toEqual([{ left: 100, top: 100, right: 110, bottom: 110 }]);
    expect(graphics.segments).toEqual([{ kind: 'h', at: 0, from: 0, to: 10 }]);
  });

  it('reads an inline image whose dictionary nests arrays thousands deep without recursing', () => {
    const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
    const graphics = read(`BI /W 1 /H 1 /BPC 8 /CS /G /Decode ${deep} ID \x80 EI\n 0 0 m 10 0 l S`);
    expect(graphics.segments).toEqual([{ kind: 'h', at: 0, from: 0, to: 10 }]);
  });

  it('cuts commands where the lexer of pdf.js cuts them, in the content and after an inline image', () => {
    // 'lS' is l then S; after the image, 'Qq' is Q (no operand: the image ends) then q.
    const graphics = read(
      'q 0 0 m 10 0 lS BI /W 1 /H 1 /BPC 8 /CS /G ID \x80 EI Qq 0 0 m 0 5 l S Q',
    );
    expect(graphics.segments).toEqual([
      { kind: 'h', at: 0, from: 0, to: 10 },
      { kind: 'v', at: 0, from: 0, to: 5 },
    ]);
    expect(graphics.images).toHaveLength(1);
    expect(() => read('0 0 m 10 0 l S\x80')).toThrow(UnsupportedContent);
    expect(() => read('0 0 m 10 0 l Sx\x80')).toThrow(UnsupportedContent);
    expect(() => read('BI /W 1 /H 1 /BPC 8 ID \x80 EI Q\x80')).toThrow(UnsupportedContent);
  });

  it('ends DCT, ASCII85 and ASCIIHex inline data where their filter marks it, then past EI', () => {
    // Each data holds 'EI ' and operators before its end marker, where a search for EI would stop.
    const jpeg = '\xff\xd8\xff\xe0\x00\x08EI 0 m\xff\xff\xd9';
    const images = [
      `BI /W 2 /H 2 /BPC 8 /CS /RGB /F /DCT ID ${jpeg}garbage EI\n`,
      'BI /W 2 /H 2 /BPC 8 /F [/A85] ID 9jqo^EI 0 0 m~> EI ',
      'BI /W 2 /H 2 /BPC 8 /F /A85 ID 9jqo^~ EI\n',
      'BI /W 2 /H 2 /BPC 8 /Filter /ASCIIHexDecode ID 80 EI 0 0 m 80> xEI ',
    ];
    for (const image of images) {
      const graphics = read(`q 10 0 0 10 20 30 cm ${image} Q 0 0 m 10 0 l S`);
      expect({ image, graphics }).toEqual({
        image,
        graphics: {
          segments: [{ kind: 'h', at: 0, from: 0, to: 10 }],
          images: [{ left: 20, top: 30, right: 30, bottom: 40 }],
        },
      });
    }
    // Without its marker, DCT data ends where an image without a filter ends.
    expect(read('BI /W 1 /H 1 /BPC 8 /F /DCT ID \x80\x80 EI\n').images).toHaveLength(1);
  });

  it('paints a one-pixel inline mask only where pdf.js paints it as an image', () => {
    const pixel = 'BI /IM true /W 1 /H 1 /BPC 1 ID \x00\nEI';
    const inverted = 'BI /IM true /W 1 /H 1 /BPC 1 /D [1 0] ID \x00\nEI';
    const graphics = read(`${pixel} q 2 0 0 2 0 0 cm ${inverted} Q BI /W 0 /H 1 ID \x80 EI\n`);
    expect(graphics.images).toEqual([{ left: 0, top: 0, right: 2, bottom: 2 }]);
  });

  it.each([
    ['inline image data glued to ID', 'BI /W 1 /H 1 /BPC 8 ID\x80 EI\n'],
    ['DCT data whose last marker has no length', 'BI /W 1 /H 1 /BPC 8 /F /DCT ID \xff\xc0'],
    ['an inline image without an end', 'BI /W 1 /H 1 /BPC 8 ID \x80EI\x80'],
    ['an inline image with an overlong value', `BI /W ${'1'.repeat(200)} /H 1 ID \x80 EI\n`],
    ['an inline image end followed by a cut token', `BI /W 1 /H 1 ID \x80 EI ${'1 '.repeat(40)}m`],
    ['an unknown operator', '1 2 zz'],
    ['a missing operand', '10 m'],
    ['an extra operand', '1 2 3 m'],
    ['a name where a number goes', '/A 2 m'],
    ['a malformed number', '1-2 3 m'],
    ['a stray delimiter', '0 0 m ) S'],
    ['an unterminated string', '(abc Tj'],
    ['three images', '/Im Do /Im Do /Im Do'],
    ['a single-pixel mask', '/Mask Do'],
    ['a recursive form', '/Loop Do'],
    ['an unreadable XObject', '/Unreadable Do'],
  ])('declines %s', (_, content) => {
    const loop: ContentResources = {
      xobject: (name) =>
        name === 'Loop'
          ? { kind: 'form', matrix: null, content: bytesOf('/Loop Do'), resources: loop }
          : undefined,
    };
    const xobjects: ContentResources = {
      xobject: (name) => {
        if (name === 'Im') return { kind: 'image', width: 2, height: 2, imageMask: false };
        if (name === 'Mask') return { kind: 'image', width: 1, height: 1, imageMask: true };
        return loop.xobject(name);
      },
    };
    expect(() => readContentGraphics(bytesOf(content), xobjects, graphicsSink(identity))).toThrow(
      UnsupportedContent,
    );
  });
});
