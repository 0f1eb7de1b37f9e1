import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import { InThreadPort } from './in-thread-port.ts';
import { patchWorkerSource } from './pdfjs-patches.ts';
import { installZlibInflate } from './zlib-inflate.ts';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** pdf.js's worker half (it ships no types): what this module uses of it. */
interface WorkerHalf {
  readonly WorkerMessageHandler: { initializeFromPort(port: InThreadPort): void };
}

/** pdf.js with its worker half running in this thread, behind an {@link InThreadPort}. */
export interface PdfJsRuntime {
  readonly pdfjs: PdfJs;
  /** Serves every document this thread opens (pass it as `getDocument`'s `worker`). */
  readonly worker: InstanceType<PdfJs['PDFWorker']>;
}

/** A loaded pdf.js document. */
export type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

let loaded: Promise<PdfJsRuntime> | undefined;

const WORKER_MODULE: string = 'pdfjs-dist/legacy/build/pdf.worker.mjs';

/**
 * pdf.js, loaded once per thread. The legacy build is the one that runs on Node 20; its standard
 * fonts and CMaps come from the installed package (never fetched). Its worker half is private to
 * docflow: not left installed as pdf.js's `globalThis.pdfjsWorker`, and not inflating through
 * the application's `DecompressionStream`; the builtins its polyfills replace are put back.
 */
export function loadPdfJs(): Promise<PdfJsRuntime> {
  loaded ??= load();
  return loaded;
}

/** Where {@link pdfJsPreload} leaves both halves of pdf.js for {@link load} to take. */
const PRELOADED = Symbol.for('docflow.pdfjs.preloaded');

interface Preloaded {
  readonly pdfjs: PdfJs;
  readonly half: WorkerHalf;
}

async function load(): Promise<PdfJsRuntime> {
  const slot = globalThis as { [PRELOADED]?: Preloaded };
  if (!slot[PRELOADED]) {
    await import(await pdfJsPreloadUrl());
  }
  const { pdfjs, half } = slot[PRELOADED] as Preloaded;
  installZlibInflate();
  const port = new InThreadPort();
  half.WorkerMessageHandler.initializeFromPort(port);
  // Quiet, as every document is opened (warnings are about the file, and reach no one).
  return { pdfjs, worker: new pdfjs.PDFWorker({ port: port as never, verbosity: 0 }) };
}

/**
 * The module that loads both halves of pdf.js (the API from the installed package, the worker
 * half from `workerFile`, see {@link workerHalfFile}) and leaves them for {@link loadPdfJs}, as
 * plain JavaScript: a PDF reader process run from the TypeScript sources imports it (`--import`)
 * before tsx's loader is registered, which would otherwise spend seconds on pdf.js's 3 MB in
 * every reader.
 *
 * The legacy build's core-js polyfills replace builtins for the whole process, among them
 * Array.prototype.push (1.8× slower) and JSON.stringify (11× slower: a JSON.rawJSON polyfill),
 * although Node 20's natives serve pdf.js as well. Both halves are loaded up front, then the
 * natives are put back, so that neither pdf.js nor the host pays for them. Loading the worker
 * half installs it as `globalThis.pdfjsWorker`; whatever was there is put back.
 */
function pdfJsPreload(workerFile: string): string {
  const api = pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')).href;
  return `const natives = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };
const hook = Object.getOwnPropertyDescriptor(globalThis, 'pdfjsWorker');
const pdfjs = await import(${JSON.stringify(api)});
const half = await import(${JSON.stringify(pathToFileURL(workerFile).href)});
if (hook) Object.defineProperty(globalThis, 'pdfjsWorker', hook);
else delete globalThis.pdfjsWorker;
Array.prototype.push = natives.push;
JSON.parse = natives.parse;
JSON.stringify = natives.stringify;
globalThis[Symbol.for('docflow.pdfjs.preloaded')] = { pdfjs, half };
`;
}

/** {@link pdfJsPreload} as a module URL: imported in this thread, or `--import`ed by a reader process. */
export async function pdfJsPreloadUrl(): Promise<string> {
  return `data:text/javascript,${encodeURIComponent(pdfJsPreload(await workerHalfFile()))}`;
}

const require = createRequire(import.meta.url);
const root = dirname(require.resolve('pdfjs-dist/package.json'));

let workerFile: Promise<string> | undefined;

/**
 * pdf.js's worker half as docflow runs it, written once to a file in a directory of the
 * temporary directory that only this user can write (named by a hash of its content, so that
 * another pdf.js or patch gets another file; {@link privateDirectory}): with the
 * web `DecompressionStream` hidden from it. Where that global exists (Node 18 on), pdf.js
 * inflates every FlateDecode stream through it: on Node a promise chain per chunk over zlib on
 * the thread pool, for a page's small streams about a fifth of the page read slower than
 * pdf.js's own synchronous inflate, to which it falls back when the constructor throws. The
 * module is evaluated from its own source with one declaration in front, on its first line (line
 * numbers stay), that shadows the global in the module's scope only: the embedding application's
 * global stays as it is. It throws a string, which costs no stack trace. Stack traces name the
 * installed file (`sourceURL`). docflow's fixes to pdf.js's text decoding are applied to the
 * same source ({@link patchWorkerSource}).
 */
export function workerHalfFile(): Promise<string> {
  workerFile ??= writeWorkerHalf();
  return workerFile;
}

async function writeWorkerHalf(): Promise<string> {
  const path = require.resolve(WORKER_MODULE);
  const source = patchWorkerSource(
    (await readFile(path, 'utf8')).replace(/^\/\/# sourceMappingURL=.*$/m, ''),
  );
  const shadowed = `const DecompressionStream = class { constructor() { throw 'inflated synchronously'; } };${source}\n//# sourceURL=${pathToFileURL(path).href}\n`;
  const hash = createHash('sha256').update(shadowed).digest('hex').slice(0, 16);
  const file = join(await privateDirectory(), `pdf.worker-${hash}.mjs`);
  if (!existsSync(file)) {
    // Written aside and renamed: a process reading it never sees half a file.
    const aside = `${file}.${process.pid}.${threadId}`;
    await writeFile(aside, shadowed);
    await rename(aside, file);
  }
  return file;
}

/**
 * A directory only this user can write, for the module docflow imports: `docflow-<uid>` in the
 * temporary directory (mode 0700), kept across processes; when that name is taken by something
 * else (another owner, other permissions, not a directory), a fresh one of this process.
 */
async function privateDirectory(): Promise<string> {
  const uid = process.getuid?.();
  if (uid !== undefined) {
    const dir = join(tmpdir(), `docflow-${uid}`);
    await mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    const stat = await lstat(dir);
    if (stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0) return dir;
  }
  return mkdtemp(join(tmpdir(), 'docflow-'));
}

/** Local asset folders of pdf.js (trailing slash required by pdf.js). */
export const PDFJS_ASSETS = {
  standardFontDataUrl: `${join(root, 'standard_fonts')}/`,
  cMapUrl: `${join(root, 'cmaps')}/`,
} as const;
