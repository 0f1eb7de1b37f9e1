/**
 * The EXTRACT executor: `extractor {id, version}` or inline `extractorConfig` (JSON `schema`
 * required) over the path's parsed document; output the interface's `{ value, metadata }` with `value`
 * valid against the schema.
 */
import { type StepContext, type StepExecutor, type StepInput, type StepOutcome } from '@docflow/engine';
import type { ExtractionConfig, ProcessorReference } from '../processors/processor-config.ts';
import type { ProcessorStepOptions } from './processor-step-options.ts';
/** EXTRACT step config. */
export interface ExtractStepConfig {
    readonly extractor?: ProcessorReference;
    readonly extractorConfig?: ExtractionConfig;
}
/** Runs one extraction config over the step's document (shared with CONDITIONAL_EXTRACT). */
export declare function executeExtraction(config: ExtractionConfig, input: StepInput<unknown>, context: StepContext, options: ProcessorStepOptions): Promise<StepOutcome>;
/**
 * The EXTRACT executor.
 *
 * @example
 * const steps = [extractStep({ resolveProcessor: (kind, ref) => myExtractors.get(ref) })];
 */
export declare function extractStep(options?: ProcessorStepOptions): StepExecutor<ExtractStepConfig>;
//# sourceMappingURL=extract-step.d.ts.map