import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let loaded: Promise<PdfJs> | undefined;

/** pdf.js's worker half, run in this thread (pdf.js's "fake worker"); it ships no types. */
const WORKER_MODULE: string = 'pdfjs-dist/legacy/build/pdf.worker.mjs';

/**
 * pdf.js, loaded once. The legacy build is the one that runs on Node 20; its standard fonts and
 * CMaps come from the installed package (never fetched).
 */
export function loadPdfJs(): Promise<PdfJs> {
  loaded ??= load();
  return loaded;
}

async function load(): Promise<PdfJs> {
  // The legacy build's core-js polyfills replace builtins for the whole process, among them
  // Array.prototype.push (1.8× slower) and JSON.stringify (11× slower: a JSON.rawJSON polyfill),
  // although Node 20's natives serve pdf.js as well. Both halves of pdf.js are loaded up front,
  // then the natives are put back, so that neither pdf.js nor the host pays for them.
  const natives = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const worker = (await import(WORKER_MODULE)) as { WorkerMessageHandler: unknown };
  // pdf.js's hook for a worker half already loaded in this thread.
  const global = globalThis as { pdfjsWorker?: unknown };
  global.pdfjsWorker ??= worker;
  Array.prototype.push = natives.push;
  JSON.parse = natives.parse;
  JSON.stringify = natives.stringify;
  return pdfjs;
}

const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** Local asset folders of pdf.js (trailing slash required by pdf.js). */
export const PDFJS_ASSETS = {
  standardFontDataUrl: `${join(root, 'standard_fonts')}/`,
  cMapUrl: `${join(root, 'cmaps')}/`,
} as const;
