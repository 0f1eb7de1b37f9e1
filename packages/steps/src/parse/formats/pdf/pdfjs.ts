import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let loaded: Promise<PdfJs> | undefined;

/**
 * pdf.js, loaded once. The legacy build is the one that runs on Node 20; its standard fonts and
 * CMaps come from the installed package (never fetched).
 */
export function loadPdfJs(): Promise<PdfJs> {
  loaded ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return loaded;
}

const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** Local asset folders of pdf.js (trailing slash required by pdf.js). */
export const PDFJS_ASSETS = {
  standardFontDataUrl: `${join(root, 'standard_fonts')}/`,
  cMapUrl: `${join(root, 'cmaps')}/`,
} as const;
