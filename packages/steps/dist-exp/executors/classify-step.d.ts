/**
 * The CLASSIFY executor: `classifier {id, version}` (pinned) or inline `classifierConfig`;
 * output the interface's `{ id, type, confidence, insights }`, routed by the classification id.
 */
import { type StepExecutor } from '@docflow/engine';
import type { ClassificationConfig, ProcessorReference } from '../processors/processor-config.ts';
import type { ProcessorStepOptions } from './processor-step-options.ts';
/** CLASSIFY step config. */
export interface ClassifyStepConfig {
    readonly classifier?: ProcessorReference;
    readonly classifierConfig?: ClassificationConfig;
}
/**
 * The CLASSIFY executor. The path continues to the `next` entries whose `classificationId` is
 * the output's `id`.
 *
 * @example
 * const step = classifyStep(); // offline provider, inline configs
 */
export declare function classifyStep(options?: ProcessorStepOptions): StepExecutor<ClassifyStepConfig>;
//# sourceMappingURL=classify-step.d.ts.map