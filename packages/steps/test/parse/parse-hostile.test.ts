import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bmpPixels } from '../../src/parse/formats/parse-image.ts';
import { OCR_MAX_PIXELS, ocrDpi } from '../../src/parse/ocr/ocr-page.ts';
import { parseDocument } from '../../src/parse/parse-document.ts';
import { makeBlankPdf, makeReportPdf } from '../fixtures/parse/make-pdf.ts';
import { crc32 } from '../fixtures/parse/make-zip.ts';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG header announcing `side` × `side` pixels with a few bytes of data. */
function pixelBomb(side = 50_000): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8;
  header[9] = 0;
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.alloc(1000))),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** A BMP header (BITMAPINFOHEADER, 24 bits) announcing `side` × `side` pixels, then 64 bytes. */
function bmpBomb(side: number): Uint8Array {
  const bmp = Buffer.alloc(54 + 64);
  bmp.write('BM', 0, 'latin1');
  bmp.writeUInt32LE(bmp.length, 2);
  bmp.writeUInt32LE(54, 10);
  bmp.writeUInt32LE(40, 14);
  bmp.writeInt32LE(side, 18);
  bmp.writeInt32LE(side, 22);
  bmp.writeUInt16LE(1, 26);
  bmp.writeUInt16LE(24, 28);
  return new Uint8Array(bmp);
}

describe('hostile inputs finish within limits or fail with a reason', { timeout: 60_000 }, () => {
  it('a 10,000-page PDF is cut to the default page range (1 to 750)', async () => {
    const bytes = makeBlankPdf(10_000);
    // With a limit under 750 the run fails fast, and the message shows the default range applied.
    const result = await parseDocument(bytes, { limits: { maxPages: 100 } });
    expect(result).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    expect(!result.ok && result.failureMessage).toMatch(/selection has 750 pages/);
    const few = await parseDocument(bytes, {
      config: { advancedOptions: { pageRanges: [{ start: 9_999, end: 10_000 }] } },
    });
    if (!few.ok) throw new Error(few.failureMessage);
    expect(few.output.metadata?.pages?.map((page) => page.number)).toEqual([9_999, 10_000]);
  });

  it('a 10,000-page PDF with all pages asked fails above limits.maxPages', async () => {
    const bytes = makeBlankPdf(10_000);
    const result = await parseDocument(bytes, {
      config: { advancedOptions: { pageRanges: [{ start: 1, end: 10_000 }] } },
    });
    expect(result).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
  });

  it('a pixel bomb image fails with FILE_SIZE_TOO_LARGE before decoding', async () => {
    for (const side of [50_000, 100_000]) {
      const result = await parseDocument(pixelBomb(side));
      expect(result).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    }
  });

  it('a BMP whose header declares 100,000 × 100,000 pixels fails before the canvas decodes it', async () => {
    // libvips reads no BMP: @napi-rs/canvas does, without a pixel limit of its own.
    expect(bmpPixels(bmpBomb(100_000))).toBe(10_000_000_000);
    const result = await parseDocument(bmpBomb(100_000), { fileName: 'scan.bmp' });
    expect(result).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    expect(!result.ok && result.failureMessage).toMatch(/more than 100000000 pixels/);
  });

  it('OCR reads at most 36 megapixels of a page: 200 DPI, less for a larger page', () => {
    expect(ocrDpi(2550, 3300, 300)).toBe(200);
    expect(ocrDpi(1275, 1650, 150)).toBe(150);
    // A 100-megapixel image at 72 DPI (a poster, or a bomb under the decode limit).
    const dpi = ocrDpi(10_000, 10_000, 72);
    expect(dpi).toBeLessThan(72);
    expect(10_000 * 10_000 * (dpi / 72) ** 2).toBeCloseTo(OCR_MAX_PIXELS, -3);
  });

  it('a parse over its time budget fails instead of hanging', { timeout: 60_000 }, async () => {
    const { bytes } = await makeReportPdf({ pages: 3 });
    const result = await parseDocument(bytes, { limits: { timeoutMs: 1 } });
    expect(result).toMatchObject({ ok: false, failureReason: 'INTERNAL_ERROR' });
    expect(!result.ok && result.failureMessage).toMatch(/limits\.timeoutMs/);
  });
});
