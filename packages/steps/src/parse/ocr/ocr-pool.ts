import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Worker } from 'tesseract.js';
import { isInstalled, loadTesseract, packageDirectory } from '../../optional/optional-package.ts';
import { type GrayImage, toPgm, toPng } from './gray-image.ts';

const FEATURE = 'OCR';

/** tesseract.js, loaded with the first OCR worker (an optional package). */
function tesseract(): ReturnType<typeof loadTesseract> {
  return loadTesseract(FEATURE);
}

/**
 * Tesseract data shipped in npm packages (optional packages too): nothing is downloaded, nothing
 * written to the cwd.
 */
function modelPath(model: 'eng' | 'osd'): string {
  return model === 'eng'
    ? join(packageDirectory('@tesseract.js-data/eng', FEATURE), '4.0.0_best_int')
    : join(packageDirectory('@tesseract.js-data/osd', 'Page orientation detection'), '4.0.0');
}

/**
 * The German model, when its package is installed: recognised beside English, it reads the
 * letters English's model lacks (ä ö ü ß: "Zürich", not "Ziirich"). Tesseract asks the second
 * model only for words the first reads poorly, so it costs little time (decision 0055).
 */
const SECOND_MODEL = '@tesseract.js-data/deu';

/**
 * The second model's data, read and unpacked once per process; undefined when its package is
 * not installed.
 */
let secondModel: Promise<Uint8Array | undefined> | undefined;

function secondModelData(): Promise<Uint8Array | undefined> {
  secondModel ??= isInstalled(SECOND_MODEL)
    ? readFile(
        join(packageDirectory(SECOND_MODEL, FEATURE), '4.0.0_best_int', 'deu.traineddata.gz'),
      )
        .then((gz) => new Uint8Array(gunzipSync(gz)))
        .catch((error: unknown) => {
          secondModel = undefined;
          throw error;
        })
    : Promise.resolve(undefined);
  return secondModel;
}

/**
 * Page recognition: PSM 3 (automatic layout; the default behaves like PSM 6 and drops table
 * columns), every character. Re-reading parts: one line of digits, points and commas (a
 * figure), or a block of uniform lines (a narrow column).
 */
const PAGE_SETTINGS = { tessedit_pageseg_mode: '3', tessedit_char_whitelist: '' };
const FIGURE_SETTINGS = { tessedit_pageseg_mode: '7', tessedit_char_whitelist: '0123456789.,' };
const ROWS_SETTINGS = { tessedit_pageseg_mode: '6', tessedit_char_whitelist: '' };

/** Workers close after this long without work, so an idle process can exit. */
const IDLE_MS = 4000;

/** A recognised word, pixel coordinates. */
export interface OcrWordPx {
  readonly text: string;
  /** 0..100 as tesseract reports it. */
  readonly confidence: number;
  readonly bbox: { x0: number; y0: number; x1: number; y1: number };
}

/** A recognised paragraph: its lines of words. */
export interface OcrParagraphPx {
  readonly lines: readonly (readonly OcrWordPx[])[];
  readonly bbox: { x0: number; y0: number; x1: number; y1: number };
}

/** What recognition of one page gives: paragraphs, and what tells an upright page. */
export interface OcrPagePx {
  readonly paragraphs: OcrParagraphPx[];
  /** Words recognised, and their mean confidence (0..100; 0 without words). */
  readonly words: number;
  readonly meanConfidence: number;
  /** Text lines, and those whose baseline runs more down than across (a page turned 90°). */
  readonly lines: number;
  readonly verticalLines: number;
  /**
   * The vertical lines themselves (the same arrays as in `paragraphs`): on an upright page, a
   * narrow column of figures that tesseract strung together down the page.
   */
  readonly vertical?: readonly (readonly OcrWordPx[])[];
}

interface Pool {
  readonly size: number;
  readonly idle: Worker[];
  readonly waiting: ((worker: Worker | undefined) => void)[];
  total: number;
  active: number;
  timer: NodeJS.Timeout | undefined;
  /** Workers created since the process started (they should be few: workers are reused). */
  started: number;
  /** Recognitions and orientation detections run since the process started. */
  recognitions: number;
  detections: number;
}

const pool: Pool = {
  size: Math.max(1, Math.min(4, availableParallelism())),
  idle: [],
  waiting: [],
  total: 0,
  active: 0,
  timer: undefined,
  started: 0,
  recognitions: 0,
  detections: 0,
};

async function newWorker(): Promise<Worker> {
  const { createWorker, OEM } = await tesseract();
  const langPath = modelPath('eng');
  const second = await secondModelData();
  pool.started++;
  // tesseract.js reads every model from one directory (langPath), and its in-memory form
  // ({ code, data }) fails at initialisation (naptha/tesseract.js#1052). So the worker starts
  // with English, the German data is written into its file system, and the worker is
  // initialised again with both: `languages` is the list the worker checks for models it has
  // (tesseract.js keeps the array it is given), so it loads nothing more.
  const languages = ['eng'];
  const worker = await createWorker(languages, OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: 'none',
  });
  if (second) {
    try {
      await worker.FS('writeFile', ['deu.traineddata', second]);
      languages.push('deu');
      await worker.reinitialize('eng+deu', OEM.LSTM_ONLY);
    } catch (error) {
      await worker.terminate().catch(() => undefined);
      throw error;
    }
  }
  await worker.setParameters({ ...PAGE_SETTINGS, preserve_interword_spaces: '1' } as never);
  return worker;
}

/**
 * Counts work on the pool's workers or the OSD worker: while any runs, the idle timer that closes
 * them is off. An orientation detection must count too: closing the OSD worker under a detection
 * left the detection unsettled, and the parse waited for its time limit (seen at load 10, where a
 * detection outlasts the idle time after a recognition).
 */
function busy(): void {
  if (pool.timer) {
    clearTimeout(pool.timer);
    pool.timer = undefined;
  }
  pool.active++;
}

/** The end of work counted by {@link busy}: the idle timer starts when none is left. */
function done(): void {
  pool.active--;
  if (pool.active === 0) {
    pool.timer = setTimeout(() => void closeOcrPool(), IDLE_MS);
    pool.timer.unref();
  }
}

async function acquire(): Promise<Worker> {
  busy();
  const idle = pool.idle.pop();
  if (idle) return idle;
  if (pool.total < pool.size) {
    pool.total++;
    try {
      return await newWorker();
    } catch (error) {
      pool.total--;
      // The slot goes to a page that asked while the worker was starting (it asks again), or
      // this work ends: left waiting, such a page was answered only when another one finished.
      release(undefined);
      throw error;
    }
  }
  const worker = await new Promise<Worker | undefined>((resolve) => pool.waiting.push(resolve));
  if (worker) return worker;
  // The slot came back empty (its worker failed): asking again counts this work again.
  pool.active--;
  return acquire();
}

function release(worker: Worker | undefined): void {
  const next = pool.waiting.shift();
  if (next) {
    // This work is done; the waiting one was counted when it asked.
    pool.active--;
    next(worker);
    return;
  }
  if (worker) pool.idle.push(worker);
  done();
}

let osd: Promise<Worker> | undefined;
let osdChain: Promise<unknown> = Promise.resolve();

/**
 * Terminates the OCR workers (they are re-created on demand). Call before a process that used
 * OCR exits early; idle workers also close by themselves after a few seconds.
 */
export async function closeOcrPool(): Promise<void> {
  const workers = pool.idle.splice(0);
  pool.total -= workers.length;
  const osdWorker = osd;
  osd = undefined;
  await Promise.all([
    ...workers.map((worker) => worker.terminate().catch(() => undefined)),
    osdWorker?.then((worker) => worker.terminate()).catch(() => undefined),
  ]);
}

/** The size of the OCR worker pool (CPU count, 1 to 4). */
export function ocrPoolSize(): number {
  return pool.size;
}

/**
 * The pool's work since the process started (workers created, pages recognised, OSD runs), and
 * the recognitions and detections under way or waiting now (the idle timer runs only at 0).
 */
export function ocrPoolStats(): {
  workersStarted: number;
  recognitions: number;
  orientationDetections: number;
  working: number;
} {
  return {
    workersStarted: pool.started,
    recognitions: pool.recognitions,
    orientationDetections: pool.detections,
    working: pool.active,
  };
}

/** tesseract.js's block tree, as far as it is read here. */
type Blocks = NonNullable<Awaited<ReturnType<Worker['recognize']>>['data']['blocks']>;

/** Paragraphs of words from tesseract's block tree, and what tells an upright page. */
function pageOf(blocks: Blocks): OcrPagePx {
  const paragraphs: OcrParagraphPx[] = [];
  const vertical: (readonly OcrWordPx[])[] = [];
  let words = 0;
  let confidence = 0;
  let lines = 0;
  for (const block of blocks) {
    for (const paragraph of block.paragraphs) {
      const kept: OcrWordPx[][] = [];
      for (const line of paragraph.lines) {
        const texts = line.words
          .filter((word) => word.text.trim() !== '')
          .map((word) => ({ text: word.text, confidence: word.confidence, bbox: word.bbox }));
        if (texts.length === 0) continue;
        kept.push(texts);
        lines++;
        const { x0, y0, x1, y1 } = line.baseline;
        if (Math.abs(y1 - y0) > Math.abs(x1 - x0)) vertical.push(texts);
        words += texts.length;
        for (const word of texts) confidence += word.confidence;
      }
      if (kept.length > 0) paragraphs.push({ lines: kept, bbox: paragraph.bbox });
    }
  }
  return {
    paragraphs,
    words,
    meanConfidence: words === 0 ? 0 : confidence / words,
    lines,
    verticalLines: vertical.length,
    vertical,
  };
}

/**
 * Runs `read` on a pooled worker; a worker that fails mid-job is terminated, not reused.
 * `recognitions` is what the job adds to the pool's count.
 */
async function onWorker<T>(recognitions: number, read: (worker: Worker) => Promise<T>): Promise<T> {
  const worker = await acquire();
  let healthy: Worker | undefined = worker;
  pool.recognitions += recognitions;
  try {
    return await read(worker);
  } catch (error) {
    healthy = undefined;
    pool.total--;
    await worker.terminate().catch(() => undefined);
    throw error;
  } finally {
    release(healthy);
  }
}

/**
 * Recognises one gray page at `dpi` into paragraphs of words, on a pooled worker. Only the block
 * tree is asked for: text, hOCR, TSV and PDF renderings would each cost a pass over the result.
 */
export function recognize(image: GrayImage, dpi: number): Promise<OcrPagePx> {
  return onWorker(1, async (worker) => {
    await worker.setParameters({ user_defined_dpi: String(Math.round(dpi)) });
    const { data } = await worker.recognize(toPgm(image), {}, { blocks: true, text: false });
    return pageOf(data.blocks ?? []);
  });
}

/**
 * Recognises parts cut out of a page again, on one pooled worker, under other settings than
 * the page's: `figure` reads one line of digits, points and commas (PSM 7), `rows` reads a
 * block of uniform text lines (PSM 6, which does not take a narrow column for vertical text).
 * Each part's words are in the part's pixels.
 */
export function recognizeParts(
  parts: readonly GrayImage[],
  dpi: number,
  kind: 'figure' | 'rows',
): Promise<OcrPagePx[]> {
  return onWorker(parts.length, async (worker) => {
    await worker.setParameters({
      ...(kind === 'figure' ? FIGURE_SETTINGS : ROWS_SETTINGS),
      user_defined_dpi: String(Math.round(dpi)),
    } as never);
    const pages: OcrPagePx[] = [];
    for (const part of parts) {
      const { data } = await worker.recognize(toPgm(part), {}, { blocks: true, text: false });
      pages.push(pageOf(data.blocks ?? []));
    }
    await worker.setParameters(PAGE_SETTINGS as never);
    return pages;
  });
}

/**
 * Page orientation with tesseract's OSD model: the clockwise degrees (0, 90, 180, 270) that turn
 * the image upright. Serialised on one legacy-engine worker.
 */
export function detectOrientation(image: GrayImage, dpi: number): Promise<number> {
  busy();
  const run = osdChain.then(async () => {
    pool.detections++;
    osd ??= tesseract().then(({ createWorker, OEM }) =>
      createWorker('osd', OEM.TESSERACT_ONLY, {
        langPath: modelPath('osd'),
        gzip: true,
        cacheMethod: 'none',
        legacyCore: true,
        legacyLang: true,
      }),
    );
    // A worker that could not start (a package missing) is tried again next time.
    const worker = await osd.catch((error: unknown) => {
      osd = undefined;
      throw error;
    });
    // A PNG, not a PGM: OSD takes the resolution from the image (without one it warns on stderr
    // and guesses).
    const { data } = await worker.detect(await toPng(image, dpi));
    const degrees = Number(data.orientation_degrees ?? 0);
    return [0, 90, 180, 270].includes(degrees) ? degrees : 0;
  });
  osdChain = run.catch(() => undefined);
  return run.finally(done);
}
