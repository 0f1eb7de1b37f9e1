var __rewriteRelativeImportExtension = (this && this.__rewriteRelativeImportExtension) || function (path, preserveJsx) {
    if (typeof path === "string" && /^\.\.?\//.test(path)) {
        return path.replace(/\.(tsx)$|((?:\.d)?)((?:\.[^./]+?)?)\.([cm]?)ts$/i, function (m, tsx, d, ext, cm) {
            return tsx ? preserveJsx ? ".jsx" : ".js" : d && (!ext || !cm) ? m : (d + ext + "." + cm.toLowerCase() + "js");
        });
    }
    return path;
};
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InThreadPort } from './in-thread-port.js';
import { patchWorkerSource } from './pdfjs-patches.js';
let loaded;
const WORKER_MODULE = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
/**
 * pdf.js, loaded once per thread. The legacy build is the one that runs on Node 20; its standard
 * fonts and CMaps come from the installed package (never fetched). Its worker half is private to
 * docflow: not left installed as pdf.js's `globalThis.pdfjsWorker`, and not inflating through
 * the application's `DecompressionStream`; the builtins its polyfills replace are put back.
 */
export function loadPdfJs() {
    loaded ??= load();
    return loaded;
}
async function load() {
    // The legacy build's core-js polyfills replace builtins for the whole process, among them
    // Array.prototype.push (1.8× slower) and JSON.stringify (11× slower: a JSON.rawJSON polyfill),
    // although Node 20's natives serve pdf.js as well. Both halves of pdf.js are loaded up front,
    // then the natives are put back, so that neither pdf.js nor the host pays for them.
    const natives = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };
    // Loading the worker half installs it as `globalThis.pdfjsWorker`; whatever was there is put back.
    const hook = Object.getOwnPropertyDescriptor(globalThis, 'pdfjsWorker');
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const half = await loadWorkerHalf();
    if (hook)
        Object.defineProperty(globalThis, 'pdfjsWorker', hook);
    else
        Reflect.deleteProperty(globalThis, 'pdfjsWorker');
    Array.prototype.push = natives.push;
    JSON.parse = natives.parse;
    JSON.stringify = natives.stringify;
    const port = new InThreadPort();
    half.WorkerMessageHandler.initializeFromPort(port);
    // Quiet, as every document is opened (warnings are about the file, and reach no one).
    return { pdfjs, worker: new pdfjs.PDFWorker({ port: port, verbosity: 0 }) };
}
const require = createRequire(import.meta.url);
const root = dirname(require.resolve('pdfjs-dist/package.json'));
/**
 * pdf.js's worker half with the web `DecompressionStream` hidden from it. Where that global exists
 * (Node 18 on), pdf.js inflates every FlateDecode stream through it: on Node a promise chain per
 * chunk over zlib on the thread pool, for a page's small streams about a fifth of the page read
 * slower than pdf.js's own synchronous inflate, to which it falls back when the constructor
 * throws. The module is evaluated from its own source with one declaration in front, on its first
 * line (line numbers stay), that shadows the global in the module's scope only: the embedding
 * application's global stays as it is. It throws a string, which costs no stack trace. Stack
 * traces name the installed file (`sourceURL`), not the data URL. docflow's fixes to pdf.js's text
 * decoding are applied to the same source ({@link patchWorkerSource}).
 */
async function loadWorkerHalf() {
    const path = require.resolve(WORKER_MODULE);
    const source = patchWorkerSource((await readFile(path, 'utf8')).replace(/^\/\/# sourceMappingURL=.*$/m, ''));
    const shadowed = `const DecompressionStream = class { constructor() { throw 'inflated synchronously'; } };${source}\n//# sourceURL=${pathToFileURL(path).href}\n`;
    return import(__rewriteRelativeImportExtension(`data:text/javascript;base64,${Buffer.from(shadowed).toString('base64')}`));
}
/** Local asset folders of pdf.js (trailing slash required by pdf.js). */
export const PDFJS_ASSETS = {
    standardFontDataUrl: `${join(root, 'standard_fonts')}/`,
    cMapUrl: `${join(root, 'cmaps')}/`,
};
//# sourceMappingURL=pdfjs.js.map