/**
 * The MERGE_EXTRACT executor: merges the extraction outputs on the path (after a COLLECT they
 * arrive as arrays) into one `{ value, metadata }`, field by top-level field. For each field the
 * candidates are the outputs where it is present (not null, not an empty array), chosen by
 * `mergeOrder`:
 * - `confidence` (default): the highest field confidence (`confidence`, else `ocrConfidence`,
 *   else the mean over the field's sub-paths), ties to the earlier output;
 * - `first_to_execute` / `last_to_execute`: the earliest / latest output in path order;
 * - `alphabetic`: the output of the alphabetically first step name.
 * The chosen output's metadata entries for the field come along.
 */
import { type StepExecutor } from '@docflow/engine';
import type { ExtractValue, FieldMetadata } from '../processors/provider.ts';
import { type SourcedExtractOutput } from './step-outputs.ts';
/** The four merge orders. */
export type MergeOrder = 'confidence' | 'alphabetic' | 'first_to_execute' | 'last_to_execute';
/** MERGE_EXTRACT step config. */
export interface MergeExtractStepConfig {
    readonly mergeOrder?: MergeOrder;
}
/** The confidence of a top-level field of an output. */
export declare function fieldConfidence(metadata: Readonly<Record<string, FieldMetadata>>, field: string): number;
/** Merges extraction outputs in path order by `order`. */
export declare function mergeExtractOutputs(sources: readonly SourcedExtractOutput[], order: MergeOrder): {
    value: Record<string, ExtractValue>;
    metadata: Record<string, FieldMetadata>;
    sources: Record<string, string>;
};
/**
 * The MERGE_EXTRACT executor. Output `{ value, metadata, mergedSteps, fieldSources }`:
 * `mergedSteps` names the merged steps in path order, `fieldSources` the step each field came from.
 */
export declare function mergeExtractStep(): StepExecutor<MergeExtractStepConfig>;
//# sourceMappingURL=merge-extract-step.d.ts.map