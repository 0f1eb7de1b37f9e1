/**
 * A scanned copy of a PDF: each page rendered to grey pixels by pdftoppm, turned by a small
 * skew, on a slightly grey paper tone with sensor noise and dust specks, then wrapped as a
 * JPEG-compressed image PDF by Ghostscript (a PostScript `image` of the raw pixels). No text
 * layer survives: PARSE must OCR it.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ghostscript, rasterize } from './producers.ts';
import type { Random } from './random.ts';

interface Gray {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

function readPgm(file: string): Gray {
  const bytes = readFileSync(file);
  // "P5\n<w> <h>\n255\n" then the pixels.
  const header: string[] = [];
  let i = 0;
  while (header.length < 4) {
    while (bytes[i] !== undefined && /\s/.test(String.fromCharCode(bytes[i] as number))) i++;
    let token = '';
    while (bytes[i] !== undefined && !/\s/.test(String.fromCharCode(bytes[i] as number)))
      token += String.fromCharCode(bytes[i++] as number);
    header.push(token);
  }
  const [magic, w, h] = header;
  if (magic !== 'P5') throw new Error(`${file}: not a binary PGM`);
  const width = Number(w);
  const height = Number(h);
  return { width, height, data: new Uint8Array(bytes.subarray(i + 1, i + 1 + width * height)) };
}

/** Rotates by `degrees` about the centre (bilinear), paper-coloured outside. */
function skew(img: Gray, degrees: number, paper: number): Gray {
  const { width, height, data } = img;
  const out = new Uint8Array(width * height);
  const a = (degrees * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const cx = width / 2;
  const cy = height / 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = x - cx;
      const dy = y - cy;
      const sx = cos * dx + sin * dy + cx;
      const sy = -sin * dx + cos * dy + cy;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= width || y0 + 1 >= height) {
        out[y * width + x] = paper;
        continue;
      }
      const fx = sx - x0;
      const fy = sy - y0;
      const p = (xx: number, yy: number) => data[yy * width + xx] as number;
      const top = p(x0, y0) * (1 - fx) + p(x0 + 1, y0) * fx;
      const bottom = p(x0, y0 + 1) * (1 - fx) + p(x0 + 1, y0 + 1) * fx;
      out[y * width + x] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return { width, height, data: out };
}

/** Paper tone, Gaussian-ish sensor noise and dust. */
function age(img: Gray, r: Random, paper: number, noise: number): void {
  const { data, width, height } = img;
  for (let i = 0; i < data.length; i++) {
    const v = data[i] as number;
    // Map white to the paper tone, keep ink dark.
    const toned = (v * paper) / 255;
    const n = (r.next() + r.next() + r.next() - 1.5) * noise;
    data[i] = Math.max(0, Math.min(255, Math.round(toned + n)));
  }
  const specks = Math.round(width * height * 0.00004);
  for (let k = 0; k < specks; k++) {
    const x = r.int(1, width - 3);
    const y = r.int(1, height - 3);
    const dark = r.int(30, 120);
    for (let dy = 0; dy < 2; dy++)
      for (let dx = 0; dx < 2; dx++) data[(y + dy) * width + x + dx] = dark;
  }
}

/** Writes `scanned` as an image-only PDF scanned from `pdf`. */
export function scanPdf(
  pdf: string,
  scanned: string,
  work: string,
  r: Random,
): { dpi: number; skew: number } {
  const dpi = r.pick([200, 200, 240, 300]);
  const degrees = (r.next() * 2 - 1) * 1.4;
  const pages = rasterize(pdf, dpi, work);
  const programs: string[] = [];
  pages.forEach((file, n) => {
    const paper = r.int(228, 246);
    const img = skew(readPgm(file), degrees + (r.next() - 0.5) * 0.3, paper);
    age(img, r, paper, r.int(6, 16));
    const raw = join(work, `page-${n}.raw`);
    writeFileSync(raw, img.data);
    const wpt = (img.width * 72) / dpi;
    const hpt = (img.height * 72) / dpi;
    programs.push(
      `<< /PageSize [${wpt.toFixed(2)} ${hpt.toFixed(2)}] >> setpagedevice\n/DeviceGray setcolorspace\n${wpt.toFixed(2)} ${hpt.toFixed(2)} scale\n<< /ImageType 1 /Width ${img.width} /Height ${img.height} /BitsPerComponent 8 /Decode [0 1] /ImageMatrix [${img.width} 0 0 -${img.height} 0 ${img.height}] /DataSource (${raw}) (r) file >> image\nshowpage`,
    );
    rmSync(file);
  });
  const ps = join(work, 'scan.ps');
  writeFileSync(ps, `%!PS\n${programs.join('\n')}\n`);
  ghostscript([ps], scanned, [
    `--permit-file-read=${work}/`,
    '-dAutoFilterGrayImages=false',
    '-sGrayImageFilter=DCTEncode',
    '-dDownsampleGrayImages=false',
    '-dJPEGQ=70',
  ]);
  rmSync(work, { recursive: true, force: true });
  return { dpi, skew: Math.round(degrees * 100) / 100 };
}
