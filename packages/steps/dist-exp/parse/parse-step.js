import { defineStep, StepError } from '@docflow/engine';
import { parseStepConfigSchema } from './parse-config-schema.js';
import { parseDocument } from './parse-document.js';
import { resolveParseConfig } from './resolve-parse-config.js';
function reportTo(listener, context, file) {
    return (progress) => listener({
        runId: context.runId,
        stepRunId: context.stepRunId,
        fileId: file.id,
        fileName: file.name,
        ...progress,
    });
}
/** ParseRunOutput is plain JSON data by construction; this states it to the type system. */
function asJson(output) {
    return output;
}
/**
 * The PARSE executor: reads the path's file(s) and parses each into the interface's ParseRunOutput.
 * One file: the output is that file's ParseRunOutput. Several (a package): `chunks` are the
 * files' chunks in order, `metadata` is the first file's, and `files` lists
 * `{ fileId, output }` per file. A document problem is a `failure` naming the file.
 *
 * @example
 * const engine = createEngine({ steps: [parseStep({ limits: { maxFileBytes: 50e6 } })] });
 */
export function parseStep(options = {}) {
    return defineStep({
        type: 'PARSE',
        configSchema: parseStepConfigSchema,
        requiresConfig: false,
        // A parse run reports the ParseConfig it used, the interface's defaults applied.
        appliedConfig(config) {
            const resolved = resolveParseConfig(config.parseConfig);
            const applied = resolved.ok ? resolved.config.applied : config.parseConfig;
            return { parseConfig: (applied ?? {}) };
        },
        async execute(input, context) {
            const results = [];
            let credits = 0;
            let pages = 0;
            for (const file of input.files) {
                let bytes;
                try {
                    bytes = await context.files.read(file.id, { signal: context.signal });
                }
                catch (error) {
                    context.signal.throwIfAborted();
                    // Storage trouble is transient from the step's point of view: let the engine retry.
                    throw new StepError(`Reading file ${file.id} (${file.name}) failed`, {
                        retryable: true,
                        reason: 'INTERNAL_ERROR',
                        cause: error,
                    });
                }
                const result = await parseDocument(bytes, {
                    fileName: file.name,
                    signal: context.signal,
                    ...(input.config.parseConfig ? { config: input.config.parseConfig } : {}),
                    ...(options.limits ? { limits: options.limits } : {}),
                    ...(options.pdfWorkers ? { pdfWorkers: options.pdfWorkers } : {}),
                    ...(options.onProgress
                        ? { onProgress: reportTo(options.onProgress, context, file) }
                        : {}),
                });
                if (!result.ok) {
                    const prefix = input.files.length > 1 ? `${file.name}: ` : '';
                    return {
                        failure: { reason: result.failureReason, message: `${prefix}${result.failureMessage}` },
                        usage: { credits, pages },
                    };
                }
                credits += result.usage.credits;
                pages += result.usage.pages;
                results.push({ fileId: file.id, output: result.output });
            }
            const usage = { credits, pages };
            const [first] = results;
            if (results.length === 1 && first)
                return { output: asJson(first.output), usage };
            return {
                output: asJson({
                    chunks: results.flatMap((result) => result.output.chunks),
                    metadata: first?.output.metadata ?? null,
                    files: results,
                }),
                usage,
            };
        },
    });
}
//# sourceMappingURL=parse-step.js.map