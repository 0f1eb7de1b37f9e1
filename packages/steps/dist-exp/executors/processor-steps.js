import { classifyStep } from './classify-step.js';
import { conditionalExtractStep } from './conditional-extract-step.js';
import { externalDataValidationStep } from './external-data-validation-step.js';
import { extractStep } from './extract-step.js';
import { fileConversionStep } from './file-conversion-step.js';
import { mergeExtractStep } from './merge-extract-step.js';
import { splitStep } from './split-step.js';
/**
 * The EXTRACT, CLASSIFY, SPLIT, MERGE_EXTRACT, CONDITIONAL_EXTRACT, EXTERNAL_DATA_VALIDATION and
 * FILE_CONVERSION executors. The offline provider does the work unless `provider` says otherwise;
 * the engine passes `resolveProcessor` so that steps can name saved processors.
 *
 * @example
 * const engine = createEngine({ steps: [parseStep(), ...processorSteps({ provider: modelProvider({ baseUrl, apiKey, model }) })] });
 */
export function processorSteps(options = {}) {
    const erase = (executor) => executor;
    return [
        erase(extractStep(options)),
        erase(classifyStep(options)),
        erase(splitStep(options)),
        erase(mergeExtractStep()),
        erase(conditionalExtractStep(options)),
        erase(externalDataValidationStep(options)),
        erase(fileConversionStep(options)),
    ];
}
//# sourceMappingURL=processor-steps.js.map