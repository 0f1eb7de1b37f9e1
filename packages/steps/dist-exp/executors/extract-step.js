/**
 * The EXTRACT executor: `extractor {id, version}` or inline `extractorConfig` (JSON `schema`
 * required) over the path's parsed document; output the interface's `{ value, metadata }` with `value`
 * valid against the schema.
 */
import { defineStep, } from '@docflow/engine';
import { offlineProvider } from '../processors/offline/offline-provider.js';
import { isProcessorFailure, runExtraction } from '../processors/run-processor.js';
import { extractionConfigSchema, processorReferenceSchema } from './config-schemas.js';
import { stepUsage } from './processor-usage.js';
import { isFailure, resolveStepProcessor } from './resolve-step-processor.js';
import { loadStepDocument } from './step-document.js';
/** Runs one extraction config over the step's document (shared with CONDITIONAL_EXTRACT). */
export async function executeExtraction(config, input, context, options) {
    const doc = await loadStepDocument(input, context, {
        ...(options.parse ? { parse: options.parse } : {}),
        ...(config.parser ? { parseConfig: config.parser } : {}),
    });
    if (isFailure(doc))
        return doc;
    const provider = options.provider ?? offlineProvider();
    const result = await runExtraction(provider, doc.view, config, context.signal);
    if (isProcessorFailure(result))
        return { ...result, usage: { credits: 0, pages: doc.pages } };
    return {
        output: result.output,
        usage: stepUsage(result.usage, options.creditsPerPage),
    };
}
/**
 * The EXTRACT executor.
 *
 * @example
 * const steps = [extractStep({ resolveProcessor: (kind, ref) => myExtractors.get(ref) })];
 */
export function extractStep(options = {}) {
    return defineStep({
        type: 'EXTRACT',
        requiresConfig: true,
        configSchema: {
            type: 'object',
            additionalProperties: false,
            properties: {
                extractor: processorReferenceSchema(false),
                extractorConfig: extractionConfigSchema,
            },
            oneOf: [{ required: ['extractor'] }, { required: ['extractorConfig'] }],
        },
        async execute(input, context) {
            const config = await resolveStepProcessor('EXTRACT', input.config.extractorConfig, input.config.extractor, options.resolveProcessor ?? context.resolveProcessor?.bind(context), context.signal);
            if (isFailure(config))
                return config;
            return executeExtraction(config, input, context, options);
        },
    });
}
//# sourceMappingURL=extract-step.js.map