import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { loadTesseract, packageDirectory } from '../../optional/optional-package.js';
import { toPgm, toPng } from './gray-image.js';
const FEATURE = 'OCR';
/** tesseract.js, loaded with the first OCR worker (an optional package). */
function tesseract() {
    return loadTesseract(FEATURE);
}
/**
 * Tesseract data shipped in npm packages (optional packages too): nothing is downloaded, nothing
 * written to the cwd.
 */
function modelPath(model) {
    return model === 'eng'
        ? join(packageDirectory('@tesseract.js-data/eng', FEATURE), '4.0.0_best_int')
        : join(packageDirectory('@tesseract.js-data/osd', 'Page orientation detection'), '4.0.0');
}
/** Workers close after this long without work, so an idle process can exit. */
const IDLE_MS = 4000;
const pool = {
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
async function newWorker() {
    const { createWorker, OEM } = await tesseract();
    const langPath = modelPath('eng');
    pool.started++;
    const worker = await createWorker('eng', OEM.LSTM_ONLY, {
        langPath,
        gzip: true,
        cacheMethod: 'none',
    });
    // PSM 3 (automatic layout): the default behaves like PSM 6 and drops table columns.
    await worker.setParameters({
        tessedit_pageseg_mode: '3',
        preserve_interword_spaces: '1',
    });
    return worker;
}
async function acquire() {
    if (pool.timer) {
        clearTimeout(pool.timer);
        pool.timer = undefined;
    }
    pool.active++;
    const idle = pool.idle.pop();
    if (idle)
        return idle;
    if (pool.total < pool.size) {
        pool.total++;
        try {
            return await newWorker();
        }
        catch (error) {
            pool.total--;
            pool.active--;
            throw error;
        }
    }
    const worker = await new Promise((resolve) => pool.waiting.push(resolve));
    if (worker)
        return worker;
    return acquire();
}
function release(worker) {
    pool.active--;
    const next = pool.waiting.shift();
    if (next) {
        pool.active++;
        next(worker);
        return;
    }
    if (worker)
        pool.idle.push(worker);
    if (pool.active === 0) {
        pool.timer = setTimeout(() => void closeOcrPool(), IDLE_MS);
        pool.timer.unref();
    }
}
let osd;
let osdChain = Promise.resolve();
/**
 * Terminates the OCR workers (they are re-created on demand). Call before a process that used
 * OCR exits early; idle workers also close by themselves after a few seconds.
 */
export async function closeOcrPool() {
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
export function ocrPoolSize() {
    return pool.size;
}
/** The pool's work since the process started: workers created, pages recognised, OSD runs. */
export function ocrPoolStats() {
    return {
        workersStarted: pool.started,
        recognitions: pool.recognitions,
        orientationDetections: pool.detections,
    };
}
/**
 * Recognises one gray page at `dpi` into paragraphs of words, on a pooled worker. Only the block
 * tree is asked for: text, hOCR, TSV and PDF renderings would each cost a pass over the result.
 */
export async function recognize(image, dpi) {
    const worker = await acquire();
    let healthy = worker;
    pool.recognitions++;
    try {
        await worker.setParameters({ user_defined_dpi: String(Math.round(dpi)) });
        const { data } = await worker.recognize(toPgm(image), {}, { blocks: true, text: false });
        const paragraphs = [];
        let words = 0;
        let confidence = 0;
        let lines = 0;
        let verticalLines = 0;
        for (const block of data.blocks ?? []) {
            for (const paragraph of block.paragraphs) {
                const kept = [];
                for (const line of paragraph.lines) {
                    const texts = line.words
                        .filter((word) => word.text.trim() !== '')
                        .map((word) => ({ text: word.text, confidence: word.confidence, bbox: word.bbox }));
                    if (texts.length === 0)
                        continue;
                    kept.push(texts);
                    lines++;
                    const { x0, y0, x1, y1 } = line.baseline;
                    if (Math.abs(y1 - y0) > Math.abs(x1 - x0))
                        verticalLines++;
                    words += texts.length;
                    for (const word of texts)
                        confidence += word.confidence;
                }
                if (kept.length > 0)
                    paragraphs.push({ lines: kept, bbox: paragraph.bbox });
            }
        }
        return {
            paragraphs,
            words,
            meanConfidence: words === 0 ? 0 : confidence / words,
            lines,
            verticalLines,
        };
    }
    catch (error) {
        // A worker that failed mid-job is not reused.
        healthy = undefined;
        pool.total--;
        await worker.terminate().catch(() => undefined);
        throw error;
    }
    finally {
        release(healthy);
    }
}
/**
 * Page orientation with tesseract's OSD model: the clockwise degrees (0, 90, 180, 270) that turn
 * the image upright. Serialised on one legacy-engine worker.
 */
export function detectOrientation(image, dpi) {
    const run = osdChain.then(async () => {
        pool.detections++;
        osd ??= tesseract().then(({ createWorker, OEM }) => createWorker('osd', OEM.TESSERACT_ONLY, {
            langPath: modelPath('osd'),
            gzip: true,
            cacheMethod: 'none',
            legacyCore: true,
            legacyLang: true,
        }));
        // A worker that could not start (a package missing) is tried again next time.
        const worker = await osd.catch((error) => {
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
    return run;
}
//# sourceMappingURL=ocr-pool.js.map