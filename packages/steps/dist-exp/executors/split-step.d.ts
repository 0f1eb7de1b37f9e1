import { type StepExecutor } from '@docflow/engine';
import type { ProcessorReference, SplitterConfig } from '../processors/processor-config.ts';
import type { ProcessorStepOptions } from './processor-step-options.ts';
/** SPLIT step config. */
export interface SplitStepConfig {
    readonly splitter?: ProcessorReference;
    readonly splitterConfig?: SplitterConfig;
}
/** The interface split item. */
export interface SplitItem {
    readonly id: string;
    readonly type: string;
    readonly classificationId: string;
    readonly identifier: string;
    readonly observation: string;
    readonly startPage: number;
    readonly endPage: number;
    readonly fileId: string;
    readonly name: string;
}
/**
 * The SPLIT executor.
 *
 * @example
 * const step = splitStep(); // offline provider, inline splitterConfig
 */
export declare function splitStep(options?: ProcessorStepOptions): StepExecutor<SplitStepConfig>;
//# sourceMappingURL=split-step.d.ts.map