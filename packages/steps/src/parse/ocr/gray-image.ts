import type { Sharp } from 'sharp';
import { loadSharp } from '../../optional/optional-package.ts';

/** sharp, loaded at the first image operation (an optional package). */
function sharp(): ReturnType<typeof loadSharp> {
  return loadSharp('Image processing for OCR');
}

/**
 * An 8-bit grayscale bitmap, one byte per pixel, rows top to bottom without padding: what OCR
 * reads. Pages stay in this form from decoding to tesseract, so no PNG is encoded and decoded
 * again on the way (tesseract converts colour to gray itself, at a cost, anyway).
 */
export interface GrayImage {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/**
 * tesseract.js looks for an EXIF orientation tag in the first 500 bytes of any image it is
 * given; a comment pads the PGM header past them so that pixel values can never be taken for one.
 */
const PGM_HEADER_MIN = 512;

/**
 * The image as a binary PGM (P5): a header in front of the raw pixels, which leptonica reads
 * without decompressing anything.
 */
export function toPgm(image: GrayImage): Buffer {
  const size = `\n${image.width} ${image.height}\n255\n`;
  const padding = Math.max(1, PGM_HEADER_MIN - 'P5\n#'.length - size.length);
  const header = Buffer.from(`P5\n#${' '.repeat(padding)}${size}`, 'latin1');
  const pgm = Buffer.allocUnsafe(header.length + image.data.length);
  header.copy(pgm, 0);
  pgm.set(image.data, header.length);
  return pgm;
}

/**
 * The image as a PNG that records `dpi`. Orientation detection reads the resolution from the
 * image itself (user_defined_dpi does not reach it); PGM cannot carry one.
 */
export async function toPng(image: GrayImage, dpi: number): Promise<Buffer> {
  // 'b-w' and withDensity: withMetadata would write sRGB (three bands), an ICC profile and EXIF.
  return (await fromRaw(image))
    .toColourspace('b-w')
    .withDensity(dpi)
    .png({ compressionLevel: 1 })
    .toBuffer();
}

async function fromRaw(image: GrayImage): Promise<Sharp> {
  return (await sharp())(image.data, {
    raw: { width: image.width, height: image.height, channels: 1 },
  });
}

/**
 * Runs `pipeline` to one 8-bit band. Gray sources keep their first band (libvips may widen a
 * one-band image to sRGB on the way, rotate does, but the bands are equal); colour sources are
 * converted to luma, which costs a pass over the pixels.
 */
async function toGray(pipeline: Sharp, source: 'gray' | 'colour'): Promise<GrayImage> {
  const banded = source === 'gray' ? pipeline.extractChannel(0) : pipeline.toColourspace('b-w');
  const { data, info } = await banded.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`expected 1 gray channel, got ${info.channels}`);
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/**
 * Decodes one page of an image file to gray: EXIF orientation applied, transparency flattened
 * onto white (dark text on a transparent background would otherwise read as a black page).
 * An 8-bit gray image without transparency, what scanners write, is taken as it is.
 */
export async function decodeGray(
  bytes: Uint8Array,
  page: number,
  limitInputPixels: number,
): Promise<GrayImage> {
  const load = await sharp();
  const input = () => load(bytes, { page, limitInputPixels });
  const meta = await input().metadata();
  if (meta.space === 'b-w' && meta.channels === 1 && meta.depth === 'uchar') {
    return toGray(input().rotate(), 'gray');
  }
  const upright = input().rotate();
  // libvips flattens gray+alpha and RGB+alpha only; other layouts with an extra band (CMYK+alpha,
  // the five bands sharp's own multi-page join writes) drop it instead.
  const opaque = !meta.hasAlpha
    ? upright
    : meta.channels === 2 || meta.channels === 4
      ? upright.flatten({ background: '#ffffff' })
      : upright.removeAlpha();
  return toGray(opaque, 'colour');
}

/** The image scaled by `factor` (< 1 to shrink), at least one pixel each way. */
export async function scaleGray(image: GrayImage, factor: number): Promise<GrayImage> {
  const width = Math.max(1, Math.round(image.width * factor));
  const height = Math.max(1, Math.round(image.height * factor));
  // The default fit ('cover') scales both axes alike and trims the rounding pixel; 'fill' would
  // stretch one axis by a fraction of a percent, which costs words on table borders.
  return toGray((await fromRaw(image)).resize(width, height), 'gray');
}

/** The image turned clockwise by a multiple of 90 degrees. */
export async function rotateGray(image: GrayImage, degrees: number): Promise<GrayImage> {
  return toGray((await fromRaw(image)).rotate(degrees), 'gray');
}

/** The pixels of `box` (clipped to the image; at least one pixel each way). */
export function cropGray(
  image: GrayImage,
  box: { x0: number; y0: number; x1: number; y1: number },
): GrayImage {
  const x0 = Math.max(0, Math.min(image.width - 1, Math.floor(box.x0)));
  const y0 = Math.max(0, Math.min(image.height - 1, Math.floor(box.y0)));
  const width = Math.max(1, Math.min(image.width, Math.ceil(box.x1)) - x0);
  const height = Math.max(1, Math.min(image.height, Math.ceil(box.y1)) - y0);
  const data = new Uint8Array(width * height);
  for (let row = 0; row < height; row++) {
    const from = (y0 + row) * image.width + x0;
    data.set(image.data.subarray(from, from + width), row * width);
  }
  return { data, width, height };
}

/** Luma of RGBA pixels (as a canvas gives them), for pages rendered from a PDF. */
export function grayFromRgba(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
): GrayImage {
  const data = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < data.length; i++, j += 4) {
    // ITU-R BT.601 weights in fixed point, as libvips and leptonica use.
    data[i] = ((rgba[j] ?? 0) * 77 + (rgba[j + 1] ?? 0) * 150 + (rgba[j + 2] ?? 0) * 29) >> 8;
  }
  return { data, width, height };
}

/** RGBA pixels of a gray image, for readers that take canvas-style image data. */
export function rgbaFromGray(image: GrayImage): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray(image.data.length * 4);
  for (let i = 0, j = 0; i < image.data.length; i++, j += 4) {
    const value = image.data[i] ?? 0;
    rgba[j] = value;
    rgba[j + 1] = value;
    rgba[j + 2] = value;
    rgba[j + 3] = 255;
  }
  return rgba;
}
