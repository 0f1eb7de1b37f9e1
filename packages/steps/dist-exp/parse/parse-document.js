import { detectFileType } from '@docflow/engine';
import { isMissingPackageError } from '../optional/optional-package.js';
import { buildChunks } from './build-chunks.js';
import { runFormatContained } from './contained-format.js';
import { DEFAULT_PARSE_LIMITS, } from './format-context.js';
import { isEncryptedOfficePackage } from './formats/zip-inspect.js';
import { measureExpansion } from './measure-expansion.js';
import { pageProgress } from './page-progress.js';
import { isParseFailure } from './parse-failure.js';
import { resolveParseConfig } from './resolve-parse-config.js';
const PDF_WORKERS_VALUES = ['auto', 'always', 'never'];
function fail(reason, message) {
    return { ok: false, failureReason: reason, failureMessage: message };
}
function timedOut(limits) {
    return fail('INTERNAL_ERROR', `Parsing did not finish within ${Math.round(limits.timeoutMs / 1000)} s; narrow advancedOptions.pageRanges or raise limits.timeoutMs.`);
}
function formatBytes(bytes) {
    return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${bytes} bytes`;
}
/**
 * Credits: parse_performance 1 per page, parse_light 0.5; parse_auto bills by complexity within
 * The interface's 0.5 to 2: simple pages 0.5, complex pages 1, OCRed pages 2.
 */
function credits(engine, draft) {
    const pages = draft.pageCount;
    if (engine === 'parse_light')
        return pages * 0.5;
    if (engine === 'parse_performance')
        return pages;
    const ocr = draft.ocrPageCount ?? 0;
    const simple = draft.simplePageCount ?? 0;
    return simple * 0.5 + ocr * 2 + Math.max(0, pages - simple - ocr);
}
function unsupportedMessage(mimeType, name) {
    const what = name === '' ? 'The file' : `'${name}'`;
    if (mimeType.includes('msword') ||
        mimeType.includes('opendocument') ||
        mimeType.includes('presentation') ||
        mimeType.includes('powerpoint') ||
        mimeType.includes('ms-excel')) {
        return `${what} is ${mimeType}, which PARSE does not read directly. Convert it to PDF (a FILE_CONVERSION step, with LibreOffice installed) or save it as DOCX/XLSX, then parse again.`;
    }
    return `${what} has content type ${mimeType}, which PARSE does not support. Supported: PDF, images (PNG, JPEG, TIFF, WebP, GIF, BMP), DOCX, XLSX, CSV, TXT, HTML, XML.`;
}
/**
 * Parses a document into the interface's ParseRunOutput. The type is detected from the content.
 * Every document problem (corrupt, encrypted, unsupported, too large, bad config) comes back as
 * `{ ok: false, failureReason, failureMessage }`; the promise rejects only when `signal` aborts.
 *
 * @example
 * const result = await parseDocument(bytes, { fileName: 'invoice.pdf' });
 * if (result.ok) console.log(result.output.chunks[0]?.content);
 */
export async function parseDocument(bytes, options = {}) {
    const started = performance.now();
    const limits = { ...DEFAULT_PARSE_LIMITS, ...options.limits };
    const name = options.fileName ?? '';
    options.signal?.throwIfAborted();
    const resolved = resolveParseConfig(options.config);
    if (!resolved.ok) {
        return fail('INVALID_CONFIG_OPTIONS', `Invalid parse config: ${resolved.issues.join('; ')}`);
    }
    const config = resolved.config;
    const pdfWorkers = options.pdfWorkers ?? 'auto';
    if (!PDF_WORKERS_VALUES.includes(pdfWorkers)) {
        return fail('INVALID_CONFIG_OPTIONS', `Invalid option pdfWorkers: ${JSON.stringify(pdfWorkers)}; use 'auto', 'always' or 'never'.`);
    }
    if (bytes.length > limits.maxFileBytes) {
        return fail('FILE_SIZE_TOO_LARGE', `The file is ${formatBytes(bytes.length)}; the limit is ${formatBytes(limits.maxFileBytes)}. Split the document or raise limits.maxFileBytes.`);
    }
    const detected = detectFileType(bytes, name);
    if (detected.type === null) {
        if (isEncryptedOfficePackage(bytes)) {
            return fail('PASSWORD_PROTECTED_FILE', 'The file is a password-protected Office document. Remove the password (File > Info > Protect) and upload it again.');
        }
        return fail('FILE_TYPE_NOT_SUPPORTED', unsupportedMessage(detected.mimeType, name));
    }
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
        // Headers may lie (ZIP64 or not) and honest data may expand a thousandfold: what the document
        // really inflates to is counted before any parser (which would trust the headers) sees it.
        await measureExpansion(detected.type, bytes, limits, signal);
    }
    catch (error) {
        options.signal?.throwIfAborted();
        if (isParseFailure(error))
            return fail(error.reason, error.message);
        if (timeout.aborted)
            return timedOut(limits);
        throw error;
    }
    const context = {
        config,
        limits,
        signal,
        mimeType: detected.mimeType,
        fileName: name,
        pdfWorkers,
        ...(options.onProgress ? { progress: pageProgress(options.onProgress) } : {}),
    };
    let draft;
    // Libraries do not all settle their promises once destroyed: the race makes an abort or a
    // timeout end the parse at once, whatever the library is doing.
    let onAbort;
    const aborted = new Promise((_, reject) => {
        onAbort = () => reject(signal.reason);
        if (signal.aborted)
            onAbort();
        else
            signal.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => undefined);
    try {
        draft = await Promise.race([runFormatContained(detected.type, bytes, context), aborted]);
    }
    catch (error) {
        if (onAbort)
            signal.removeEventListener('abort', onAbort);
        options.signal?.throwIfAborted();
        if (timeout.aborted)
            return timedOut(limits);
        if (isParseFailure(error))
            return fail(error.reason, error.message);
        // Every optional package serves OCR; the parsers name the feature, this is the net below them.
        if (isMissingPackageError(error))
            return fail('OCR_ERROR', error.message);
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof RangeError) {
            // A limit of the runtime met by the document (a structure nested past the stack, a text
            // past V8's longest string, an allocation refused): the document's size, not a bug.
            return fail('FILE_SIZE_TOO_LARGE', `The ${detected.type} file is beyond what can be read here (${message}): its structure nests too deeply or it expands too far.`);
        }
        return fail('INTERNAL_ERROR', `Parsing the ${detected.type} file failed unexpectedly: ${message}`);
    }
    if (onAbort)
        signal.removeEventListener('abort', onAbort);
    options.signal?.throwIfAborted();
    let chunks;
    try {
        chunks = buildChunks(draft, config);
    }
    catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return fail('CHUNKING_ERROR', `Building chunks failed: ${message}`);
    }
    const output = {
        chunks,
        metadata: {
            originalMimeType: detected.mimeType,
            finalMimeType: draft.finalMimeType ?? detected.mimeType,
            pages: draft.pages,
        },
    };
    const pages = draft.pageCount;
    return {
        ok: true,
        output,
        config: config.applied,
        usage: { credits: credits(config.engine, draft), pages },
        metrics: {
            processingTimeMs: Math.round(performance.now() - started),
            pageCount: pages,
            ocrPageCount: draft.ocrPageCount ?? 0,
        },
    };
}
//# sourceMappingURL=parse-document.js.map