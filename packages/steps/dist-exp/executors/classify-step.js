/**
 * The CLASSIFY executor: `classifier {id, version}` (pinned) or inline `classifierConfig`;
 * output the interface's `{ id, type, confidence, insights }`, routed by the classification id.
 */
import { defineStep } from '@docflow/engine';
import { offlineProvider } from '../processors/offline/offline-provider.js';
import { isProcessorFailure, runClassification } from '../processors/run-processor.js';
import { classificationConfigSchema, processorReferenceSchema } from './config-schemas.js';
import { stepUsage } from './processor-usage.js';
import { isFailure, resolveStepProcessor } from './resolve-step-processor.js';
import { loadStepDocument } from './step-document.js';
/**
 * The CLASSIFY executor. The path continues to the `next` entries whose `classificationId` is
 * the output's `id`.
 *
 * @example
 * const step = classifyStep(); // offline provider, inline configs
 */
export function classifyStep(options = {}) {
    return defineStep({
        type: 'CLASSIFY',
        requiresConfig: true,
        configSchema: {
            type: 'object',
            additionalProperties: false,
            properties: {
                classifier: processorReferenceSchema(true),
                classifierConfig: classificationConfigSchema,
            },
            oneOf: [{ required: ['classifier'] }, { required: ['classifierConfig'] }],
        },
        async execute(input, context) {
            const config = await resolveStepProcessor('CLASSIFY', input.config.classifierConfig, input.config.classifier, options.resolveProcessor ?? context.resolveProcessor?.bind(context), context.signal);
            if (isFailure(config))
                return config;
            const doc = await loadStepDocument(input, context, {
                ...(options.parse ? { parse: options.parse } : {}),
                ...(config.parser ? { parseConfig: config.parser } : {}),
            });
            if (isFailure(doc))
                return doc;
            const result = await runClassification(options.provider ?? offlineProvider(), doc.view, config, context.signal);
            if (isProcessorFailure(result))
                return { ...result, usage: { credits: 0, pages: doc.pages } };
            return {
                output: result.output,
                route: result.output.id,
                usage: stepUsage(result.usage, options.creditsPerPage),
            };
        },
    });
}
//# sourceMappingURL=classify-step.js.map