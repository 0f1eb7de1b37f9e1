/**
 * The SPLIT executor: `splitter {id, version}` (pinned) or inline `splitterConfig`. Each split
 * becomes a child file (`parentFileId`, `metadata.parentSplit`, `metadata.pageCount`): for a PDF
 * the split's pages copied with pdf-lib (its maintained fork, @cantoo/pdf-lib), for other types a
 * text file of the split's pages. Each child starts a path of its own, routed by the split's
 * `classificationId`.
 */
import { createHash } from 'node:crypto';
import { defineStep } from '@docflow/engine';
import { offlineProvider } from '../processors/offline/offline-provider.js';
import { isProcessorFailure, runSplit } from '../processors/run-processor.js';
import { processorReferenceSchema, splitterConfigSchema } from './config-schemas.js';
import { stepUsage } from './processor-usage.js';
import { isFailure, resolveStepProcessor } from './resolve-step-processor.js';
import { loadStepDocument } from './step-document.js';
function baseName(name) {
    const dot = name.lastIndexOf('.');
    return (dot > 0 ? name.slice(0, dot) : name).replace(/[^\w.-]+/g, '_');
}
function isPdf(file, bytes) {
    if (file.type === 'PDF')
        return true;
    return (bytes.length > 4 &&
        bytes[0] === 0x25 &&
        bytes[1] === 0x50 &&
        bytes[2] === 0x44 &&
        bytes[3] === 0x46);
}
async function pdfPages(bytes, start, end) {
    // pdf-lib loads with the first split (a second of start-up for every importer otherwise).
    const { PDFDocument } = await import('@cantoo/pdf-lib');
    const source = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    const count = source.getPageCount();
    const child = await PDFDocument.create();
    const indexes = [];
    for (let p = start; p <= Math.min(end, count); p++)
        indexes.push(p - 1);
    if (indexes.length === 0)
        throw new Error(`pages ${start}-${end} are outside the PDF's ${count} pages`);
    const copied = await child.copyPages(source, indexes);
    for (const page of copied)
        child.addPage(page);
    return child.save();
}
function splitText(view, split) {
    const pages = view.pages.filter((p) => (split.fileId === undefined || p.fileId === undefined || p.fileId === split.fileId) &&
        p.number >= split.startPage &&
        p.number <= split.endPage);
    return new TextEncoder().encode(pages.map((p) => p.text).join('\f'));
}
/**
 * The SPLIT executor.
 *
 * @example
 * const step = splitStep(); // offline provider, inline splitterConfig
 */
export function splitStep(options = {}) {
    return defineStep({
        type: 'SPLIT',
        requiresConfig: true,
        configSchema: {
            type: 'object',
            additionalProperties: false,
            properties: {
                splitter: processorReferenceSchema(true),
                splitterConfig: splitterConfigSchema,
            },
            oneOf: [{ required: ['splitter'] }, { required: ['splitterConfig'] }],
        },
        async execute(input, context) {
            const config = await resolveStepProcessor('SPLITTER', input.config.splitterConfig, input.config.splitter, options.resolveProcessor ?? context.resolveProcessor?.bind(context), context.signal);
            if (isFailure(config))
                return config;
            const parseConfig = config.parseConfig ?? config.parser;
            const doc = await loadStepDocument(input, context, {
                ...(options.parse ? { parse: options.parse } : {}),
                ...(parseConfig ? { parseConfig } : {}),
            });
            if (isFailure(doc))
                return doc;
            const result = await runSplit(options.provider ?? offlineProvider(), doc.view, config, context.signal);
            if (isProcessorFailure(result))
                return { ...result, usage: { credits: 0, pages: doc.pages } };
            const usage = stepUsage(result.usage, options.creditsPerPage);
            const bytesOf = new Map();
            const splits = [];
            const forks = [];
            for (const [k, split] of result.output.entries()) {
                const file = input.files.find((f) => f.id === split.fileId) ?? input.files[0];
                if (!file)
                    return {
                        failure: { reason: 'FAILED_TO_PROCESS_FILE', message: 'The step received no file' },
                        usage,
                    };
                let bytes = bytesOf.get(file.id);
                if (!bytes) {
                    bytes = await context.files.read(file.id, { signal: context.signal });
                    bytesOf.set(file.id, bytes);
                }
                const id = `split_${createHash('sha1').update(`${context.idempotencyKey}:${k}`).digest('hex').slice(0, 16)}`;
                const pdf = isPdf(file, bytes);
                let data;
                try {
                    data = pdf
                        ? await pdfPages(bytes, split.startPage, split.endPage)
                        : splitText(doc.view, split);
                }
                catch (error) {
                    context.signal.throwIfAborted();
                    return {
                        failure: {
                            reason: 'FAILED_TO_PROCESS_FILE',
                            message: `${file.name}: cannot cut pages ${split.startPage}-${split.endPage}: ${error.message}`,
                        },
                        usage,
                    };
                }
                const name = `${baseName(file.name)}_${k + 1}_${split.type}_p${split.startPage}-${split.endPage}.${pdf ? 'pdf' : 'txt'}`;
                const child = await context.files.create({
                    name,
                    data,
                    parentFileId: file.id,
                    metadata: {
                        parentSplit: {
                            id,
                            type: split.type,
                            identifier: split.identifier,
                            startPage: split.startPage,
                            endPage: split.endPage,
                        },
                        pageCount: split.endPage - split.startPage + 1,
                    },
                }, { signal: context.signal });
                const item = {
                    id,
                    type: split.type,
                    classificationId: split.classificationId,
                    identifier: split.identifier,
                    observation: split.observation,
                    startPage: split.startPage,
                    endPage: split.endPage,
                    fileId: child.id,
                    name,
                };
                splits.push(item);
                forks.push({
                    file: child,
                    route: split.classificationId,
                    output: item,
                });
            }
            return { output: { splits }, usage, forks };
        },
    });
}
//# sourceMappingURL=split-step.js.map