/**
 * The CONDITIONAL_EXTRACT executor: `rules[] { name?, formula, extractor }`; the first rule whose
 * formula evaluates to TRUE (with @docflow/formulas, over the path's outputs and the run's
 * metadata) picks the extractor that runs. The last rule's formula is `TRUE`, the catch-all. A
 * formula that fails to parse or evaluate does not hold; its error is reported in the output.
 */
import { type StepExecutor } from '@docflow/engine';
import type { ProcessorReference } from '../processors/processor-config.ts';
import type { ProcessorStepOptions } from './processor-step-options.ts';
/** One rule of CONDITIONAL_EXTRACT. */
export interface ConditionalExtractRule {
    readonly name?: string;
    readonly formula: string;
    readonly extractor: ProcessorReference;
}
/** CONDITIONAL_EXTRACT step config. */
export interface ConditionalExtractStepConfig {
    readonly rules: readonly ConditionalExtractRule[];
}
/**
 * The CONDITIONAL_EXTRACT executor. Output: the chosen extractor's `{ value, metadata }` plus
 * `rule: { index, name, extractor }` and `ruleErrors` for formulas that failed.
 */
export declare function conditionalExtractStep(options?: ProcessorStepOptions): StepExecutor<ConditionalExtractStepConfig>;
//# sourceMappingURL=conditional-extract-step.d.ts.map