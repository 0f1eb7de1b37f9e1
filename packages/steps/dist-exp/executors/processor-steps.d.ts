/**
 * Every processor step executor with shared options, for `createEngine({ steps })`.
 */
import type { StepExecutor } from '@docflow/engine';
import type { ProcessorStepOptions } from './processor-step-options.ts';
/**
 * The EXTRACT, CLASSIFY, SPLIT, MERGE_EXTRACT, CONDITIONAL_EXTRACT, EXTERNAL_DATA_VALIDATION and
 * FILE_CONVERSION executors. The offline provider does the work unless `provider` says otherwise;
 * the engine passes `resolveProcessor` so that steps can name saved processors.
 *
 * @example
 * const engine = createEngine({ steps: [parseStep(), ...processorSteps({ provider: modelProvider({ baseUrl, apiKey, model }) })] });
 */
export declare function processorSteps(options?: ProcessorStepOptions): StepExecutor[];
//# sourceMappingURL=processor-steps.d.ts.map