/**
 * Every processor step executor with shared options, for `createEngine({ steps })`.
 */
import type { StepExecutor } from '@docflow/engine';
import { classifyStep } from './classify-step.ts';
import { conditionalExtractStep } from './conditional-extract-step.ts';
import { externalDataValidationStep } from './external-data-validation-step.ts';
import { extractStep } from './extract-step.ts';
import { fileConversionStep } from './file-conversion-step.ts';
import { mergeExtractStep } from './merge-extract-step.ts';
import type { ProcessorStepOptions } from './processor-step-options.ts';
import { splitStep } from './split-step.ts';

/**
 * The EXTRACT, CLASSIFY, SPLIT, MERGE_EXTRACT, CONDITIONAL_EXTRACT, EXTERNAL_DATA_VALIDATION and
 * FILE_CONVERSION executors. The offline provider does the work unless `provider` says otherwise;
 * the engine passes `resolveProcessor` so that steps can name saved processors.
 *
 * @example
 * const engine = createEngine({ steps: [parseStep(), ...processorSteps({ provider: modelProvider({ baseUrl, apiKey, model }) })] });
 */
export function processorSteps(options: ProcessorStepOptions = {}): StepExecutor[] {
  const erase = <T>(executor: StepExecutor<T>) => executor as unknown as StepExecutor;
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
