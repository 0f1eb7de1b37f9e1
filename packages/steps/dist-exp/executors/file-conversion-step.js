/**
 * The FILE_CONVERSION executor: makes every file of the path a PDF. PDFs pass through; images
 * (PNG and JPEG embedded as they are, other formats through sharp) become one page each; HTML and
 * plain text are laid out as text pages with pdf-lib; Word, Excel and PowerPoint go through
 * LibreOffice (`soffice --headless --convert-to pdf`) when it is installed, and fail with
 * FAILED_TO_CONVERT_TO_PDF saying so when it is not. `failureBehavior` EXIT (default) makes a
 * file that cannot be converted a step failure; CONTINUE keeps the original and records why.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineStep } from '@docflow/engine';
import { isMissingPackageError, loadSharp } from '../optional/optional-package.js';
import { failureBehaviorSchema } from './config-schemas.js';
class ConversionError extends Error {
    name = 'ConversionError';
}
const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 54;
function sniff(bytes) {
    const b = (i) => bytes[i] ?? -1;
    if (b(0) === 0x25 && b(1) === 0x50 && b(2) === 0x44 && b(3) === 0x46)
        return 'pdf';
    if (b(0) === 0x89 && b(1) === 0x50 && b(2) === 0x4e && b(3) === 0x47)
        return 'png';
    if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff)
        return 'jpeg';
    if (b(0) === 0x50 && b(1) === 0x4b)
        return 'zip';
    if (b(0) === 0xd0 && b(1) === 0xcf && b(2) === 0x11 && b(3) === 0xe0)
        return 'ole';
    return 'other';
}
function extension(name) {
    const dot = name.lastIndexOf('.');
    return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}
function pdfName(name) {
    const dot = name.lastIndexOf('.');
    return `${dot > 0 ? name.slice(0, dot) : name}.pdf`;
}
/** PNG and JPEG embedded as they are; other formats through sharp (an optional package). */
async function embedImage(doc, bytes) {
    const kind = sniff(bytes);
    if (kind === 'png')
        return doc.embedPng(bytes);
    if (kind === 'jpeg')
        return doc.embedJpg(bytes);
    const sharp = await loadSharp('Converting images other than PNG and JPEG to PDF');
    return doc.embedPng(await sharp(bytes).png().toBuffer());
}
/**
 * pdf-lib (the maintained fork, @cantoo/pdf-lib), loaded with the first conversion (it costs a
 * second of start-up to every importer).
 */
function pdfLib() {
    return import('@cantoo/pdf-lib');
}
async function imageToPdf(bytes) {
    const doc = await (await pdfLib()).PDFDocument.create();
    let image;
    try {
        image = await embedImage(doc, bytes);
    }
    catch (error) {
        if (isMissingPackageError(error))
            throw new ConversionError(error.message);
        throw new ConversionError(`the image cannot be read: ${error.message}`);
    }
    // One image per page at 72 dpi, scaled down to fit a letter page when larger.
    const scale = Math.min(1, PAGE_WIDTH / image.width, PAGE_HEIGHT / image.height);
    const width = Math.max(1, image.width * scale);
    const height = Math.max(1, image.height * scale);
    const page = doc.addPage([width, height]);
    page.drawImage(image, { x: 0, y: 0, width, height });
    return doc.save();
}
/** Text laid out on letter pages in Helvetica 11 pt; characters outside WinAnsi become "?". */
export async function textToPdf(text) {
    const { PDFDocument, StandardFonts } = await pdfLib();
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const size = 11;
    const leading = 14;
    const maxWidth = PAGE_WIDTH - 2 * MARGIN;
    const clean = (s) => s.replace(/\t/g, '    ').replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');
    const lines = [];
    for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
        const words = clean(raw).split(/( +)/);
        let line = '';
        for (const word of words) {
            const next = line + word;
            if (font.widthOfTextAtSize(next, size) > maxWidth && line.trim() !== '') {
                lines.push(line.trimEnd());
                line = word.trimStart();
            }
            else {
                line = next;
            }
        }
        lines.push(line.trimEnd());
    }
    const perPage = Math.floor((PAGE_HEIGHT - 2 * MARGIN) / leading);
    for (let i = 0; i === 0 || i < lines.length; i += perPage) {
        const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
        // The font set once per page: a `font` option on each drawText adds a font resource per line.
        page.setFont(font);
        lines.slice(i, i + perPage).forEach((line, k) => {
            if (line !== '')
                page.drawText(line, { x: MARGIN, y: PAGE_HEIGHT - MARGIN - size - k * leading, size });
        });
    }
    return doc.save();
}
/** The readable text of an HTML document, one block element per line. */
export async function htmlText(html) {
    const { load } = await import('cheerio');
    const $ = load(html);
    $('script, style, head, noscript, template').remove();
    $('br').replaceWith('\n');
    $('p, div, h1, h2, h3, h4, h5, h6, li, tr, table, section, article, header, footer, blockquote, pre').each((_, el) => {
        $(el).append('\n');
    });
    $('td, th').each((_, el) => {
        $(el).append('  ');
    });
    return $.root()
        .text()
        .split('\n')
        .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim())
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
}
async function runSoffice(binary, bytes, name, signal) {
    const dir = await mkdtemp(join(tmpdir(), 'docflow-convert-'));
    try {
        const input = join(dir, `input.${extension(name) || 'bin'}`);
        await writeFile(input, bytes);
        await new Promise((resolve, reject) => {
            const child = spawn(binary, ['--headless', '--convert-to', 'pdf', '--outdir', dir, input], {
                signal,
                stdio: 'ignore',
                env: { ...process.env, HOME: dir },
            });
            child.on('error', (error) => {
                if (error.code === 'ENOENT') {
                    reject(new ConversionError(`LibreOffice is not installed (no "${binary}" on the PATH); install it to convert ${extension(name).toUpperCase() || 'Office'} files to PDF`));
                }
                else
                    reject(error);
            });
            child.on('exit', (code) => code === 0
                ? resolve()
                : reject(new ConversionError(`LibreOffice exited with code ${code}`)));
        });
        try {
            return new Uint8Array(await readFile(join(dir, 'input.pdf')));
        }
        catch {
            throw new ConversionError('LibreOffice produced no PDF');
        }
    }
    finally {
        await rm(dir, { recursive: true, force: true });
    }
}
const OFFICE = new Set(['doc', 'docx', 'odt', 'rtf', 'xls', 'xlsx', 'ods', 'ppt', 'pptx', 'odp']);
const IMAGE = new Set([
    'png',
    'jpg',
    'jpeg',
    'gif',
    'bmp',
    'tif',
    'tiff',
    'webp',
    'heic',
    'heif',
    'avif',
]);
/** Converts one file; null when it is already a PDF. */
async function convert(file, bytes, options, signal) {
    const kind = sniff(bytes);
    const ext = extension(file.name);
    if (kind === 'pdf')
        return null;
    if (file.type === 'IMG' || kind === 'png' || kind === 'jpeg' || IMAGE.has(ext))
        return imageToPdf(bytes);
    if (file.type === 'DOCX' || file.type === 'EXCEL' || OFFICE.has(ext) || kind === 'ole') {
        return runSoffice(options.sofficePath ?? 'soffice', bytes, file.name, signal);
    }
    const text = new TextDecoder().decode(bytes);
    if (file.type === 'HTML' ||
        ext === 'html' ||
        ext === 'htm' ||
        /^\s*<(!doctype html|html)/i.test(text)) {
        return textToPdf(await htmlText(text));
    }
    if (file.type === 'TXT' || file.type === 'CSV' || file.type === 'XML' || kind === 'other')
        return textToPdf(text);
    throw new ConversionError(`files of type ${file.type ?? 'unknown'} cannot be converted to PDF`);
}
/**
 * The FILE_CONVERSION executor. Output `{ files, conversions }`: `files` are the path's files
 * after conversion (converted PDFs in place of their originals), `conversions` what happened to
 * each file. The engine continues the path with `files`.
 */
export function fileConversionStep(options = {}) {
    return defineStep({
        type: 'FILE_CONVERSION',
        requiresConfig: false,
        configSchema: {
            type: 'object',
            additionalProperties: false,
            properties: { failureBehavior: failureBehaviorSchema },
        },
        async execute(input, context) {
            const exit = (input.config?.failureBehavior ?? 'EXIT') === 'EXIT';
            const files = [];
            const conversions = [];
            let pages = 0;
            for (const file of input.files) {
                const bytes = await context.files.read(file.id, { signal: context.signal });
                let pdf;
                try {
                    pdf = await convert(file, bytes, options, context.signal);
                }
                catch (error) {
                    context.signal.throwIfAborted();
                    const message = `${file.name}: ${error.message ?? String(error)}`;
                    if (exit)
                        return { failure: { reason: 'FAILED_TO_CONVERT_TO_PDF', message } };
                    files.push(file);
                    conversions.push({
                        fileId: file.id,
                        name: file.name,
                        status: 'failed',
                        convertedFileId: null,
                        message,
                    });
                    continue;
                }
                if (pdf === null) {
                    files.push(file);
                    conversions.push({
                        fileId: file.id,
                        name: file.name,
                        status: 'unchanged',
                        convertedFileId: null,
                        message: null,
                    });
                    continue;
                }
                const pageCount = (await (await pdfLib()).PDFDocument.load(pdf)).getPageCount();
                pages += pageCount;
                const created = await context.files.create({ name: pdfName(file.name), data: pdf, parentFileId: file.id, metadata: { pageCount } }, { signal: context.signal });
                files.push(created);
                conversions.push({
                    fileId: file.id,
                    name: file.name,
                    status: 'converted',
                    convertedFileId: created.id,
                    message: null,
                });
            }
            return {
                output: { files, conversions },
                usage: { credits: 0, pages },
                // The path goes on with the converted files in place of the originals.
                files,
            };
        },
    });
}
//# sourceMappingURL=file-conversion-step.js.map