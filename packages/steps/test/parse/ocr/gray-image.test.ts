import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  decodeGray,
  type GrayImage,
  grayFromRgba,
  rgbaFromGray,
  rotateGray,
  scaleGray,
  toPgm,
  toPng,
} from '../../../src/parse/ocr/gray-image.ts';

function gray(width: number, height: number, fill = 255): GrayImage {
  return { data: new Uint8Array(width * height).fill(fill), width, height };
}

describe('toPgm', () => {
  it('puts the pixels after byte 500, where tesseract.js stops looking for EXIF tags', () => {
    // Pixel values spelling tesseract.js's EXIF orientation pattern (1 18 0 3 0 0 0 1 0 6).
    const image = gray(10, 2);
    image.data.set([1, 18, 0, 3, 0, 0, 0, 1, 0, 6]);
    const pgm = toPgm(image);
    const head = Array.from(pgm.subarray(0, 500)).join(' ');
    expect(head).not.toMatch(/1 18 0 3 0 0 0 1 0 \d/);
    expect(pgm.length).toBeGreaterThanOrEqual(500 + image.data.length);
    expect(Array.from(pgm.subarray(pgm.length - 20, pgm.length - 10))).toEqual([
      1, 18, 0, 3, 0, 0, 0, 1, 0, 6,
    ]);
  });

  it('is a binary PGM (P5): magic, comment, size, maxval 255, then the raw pixels', () => {
    const image = gray(3, 2);
    image.data.set([0, 64, 128, 192, 255, 7]);
    const pgm = toPgm(image);
    const text = pgm.toString('latin1');
    const header = /^P5\n(#[^\n]*\n)?(\d+) (\d+)\n255\n/.exec(text);
    expect(header?.slice(2)).toEqual(['3', '2']);
    expect(Array.from(pgm.subarray(header?.[0].length))).toEqual([0, 64, 128, 192, 255, 7]);
  });
});

describe('toPng', () => {
  it('records the resolution, which orientation detection reads from the image', async () => {
    const png = await toPng(gray(4, 2, 100), 150);
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 4, height: 2, channels: 1 });
    expect(meta.density).toBeCloseTo(150, 0);
  });
});

describe('decodeGray', () => {
  it('flattens transparency onto white: dark text on a clear sheet stays readable', async () => {
    // Black everywhere, opaque only in the left column: a "glyph" on a transparent background.
    const rgba = new Uint8Array(4 * 3 * 4);
    for (let y = 0; y < 3; y++) rgba[(y * 4 + 0) * 4 + 3] = 255;
    const png = await sharp(rgba, { raw: { width: 4, height: 3, channels: 4 } })
      .png()
      .toBuffer();
    const image = await decodeGray(png, 0, 1_000_000);
    expect(image).toMatchObject({ width: 4, height: 3 });
    expect(Array.from(image.data.subarray(0, 4))).toEqual([0, 255, 255, 255]);
  });

  it('takes an 8-bit gray scan as it is, EXIF orientation applied', async () => {
    const pixels = new Uint8Array([0, 50, 100, 150, 200, 250]);
    const raw = { raw: { width: 3, height: 2, channels: 1 as const } };
    const png = await sharp(pixels, raw).toColourspace('b-w').png().toBuffer();
    expect(await sharp(png).metadata()).toMatchObject({ space: 'b-w', channels: 1 });
    const image = await decodeGray(png, 0, 1_000_000);
    expect(image).toMatchObject({ width: 3, height: 2 });
    expect(Array.from(image.data)).toEqual(Array.from(pixels));
    // Orientation 6: the stored image is shown turned 90° clockwise.
    // sharp cannot write a one-band image with an orientation tag: a hand-made TIFF.
    const tiff = grayTiff(3, 2, pixels, 6);
    expect(await sharp(tiff).metadata()).toMatchObject({
      space: 'b-w',
      channels: 1,
      orientation: 6,
    });
    const turned = await decodeGray(tiff, 0, 1_000_000);
    expect(turned).toMatchObject({ width: 2, height: 3 });
    expect(Array.from(turned.data)).toEqual([150, 0, 200, 50, 250, 100]);
  });

  it('converts colour to luma, a 16-bit gray scan to 8 bits', async () => {
    const red = await sharp({ create: { width: 2, height: 1, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const image = await decodeGray(red, 0, 1_000_000);
    // Red ink stays ink: a mid gray, neither paper nor lost in the background.
    expect(image.data.length).toBe(2);
    expect(image.data[0]).toBeGreaterThan(50);
    expect(image.data[0]).toBeLessThan(200);
    const deep = await sharp(new Uint16Array([0, 32768, 65535]), {
      raw: { width: 3, height: 1, channels: 1 },
    })
      .toColourspace('grey16')
      .png()
      .toBuffer();
    const wide = await decodeGray(deep, 0, 1_000_000);
    expect(Array.from(wide.data)).toEqual([0, 128, 255]);
  });

  it('applies the EXIF orientation and gives one byte per pixel', async () => {
    const jpeg = await sharp({
      create: { width: 40, height: 20, channels: 3, background: '#808080' },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const image = await decodeGray(jpeg, 0, 1_000_000);
    expect(image).toMatchObject({ width: 20, height: 40 });
    expect(image.data.length).toBe(20 * 40);
    expect(Math.abs((image.data[0] ?? 0) - 128)).toBeLessThanOrEqual(2);
  });
});

describe('scaleGray and rotateGray', () => {
  it('scales a 300-DPI letter page to 200 DPI, keeping one gray band', async () => {
    const image = await scaleGray(gray(2550, 3301, 200), 2 / 3);
    expect(image).toMatchObject({ width: 1700, height: 2201 });
    expect(image.data.length).toBe(1700 * 2201);
    expect(image.data[12345]).toBe(200);
  });

  it('turns clockwise: the top-left pixel ends top-right after 90°', async () => {
    const image = gray(3, 2);
    image.data[0] = 0;
    const turned = await rotateGray(image, 90);
    expect(turned).toMatchObject({ width: 2, height: 3 });
    expect(Array.from(turned.data)).toEqual([255, 0, 255, 255, 255, 255]);
  });
});

describe('grayFromRgba and rgbaFromGray', () => {
  it('weighs green most, like luma', () => {
    const image = grayFromRgba(
      new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]),
      4,
      1,
    );
    expect(Array.from(image.data)).toEqual([76, 149, 28, 255]);
  });

  it('expands gray to opaque RGBA', () => {
    const rgba = rgbaFromGray({ data: new Uint8Array([9, 200]), width: 2, height: 1 });
    expect(Array.from(rgba)).toEqual([9, 9, 9, 255, 200, 200, 200, 255]);
  });
});

/** An uncompressed 8-bit gray TIFF (little-endian, one strip) with an EXIF-style orientation. */
function grayTiff(width: number, height: number, pixels: Uint8Array, orientation: number) {
  const tags: [number, number, number][] = [
    [256, 3, width], // ImageWidth, SHORT
    [257, 3, height], // ImageLength
    [258, 3, 8], // BitsPerSample
    [259, 3, 1], // Compression: none
    [262, 3, 1], // PhotometricInterpretation: BlackIsZero
    [273, 4, 0], // StripOffsets, LONG: filled in below
    [274, 3, orientation], // Orientation
    [277, 3, 1], // SamplesPerPixel
    [278, 3, height], // RowsPerStrip
    [279, 4, pixels.length], // StripByteCounts
  ];
  const ifdSize = 2 + tags.length * 12 + 4;
  const bytes = new Uint8Array(8 + ifdSize + pixels.length);
  const view = new DataView(bytes.buffer);
  bytes.set([0x49, 0x49, 42, 0]);
  view.setUint32(4, 8, true);
  view.setUint16(8, tags.length, true);
  tags.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12;
    view.setUint16(at, tag, true);
    view.setUint16(at + 2, type, true);
    view.setUint32(at + 4, 1, true);
    const v = tag === 273 ? 8 + ifdSize : value;
    if (type === 3) view.setUint16(at + 8, v, true);
    else view.setUint32(at + 8, v, true);
  });
  bytes.set(pixels, 8 + ifdSize);
  return bytes;
}
