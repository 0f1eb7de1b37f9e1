/**
 * Reading the outputs a path carries: which are extraction outputs (`{ value, metadata }`), and
 * the formula scope of docs/formulas.md (a classification step is its type, an extraction
 * step its value, an external validation step its response data, `metadata` the run's).
 * Outputs after a COLLECT are arrays, one entry per arrived path.
 */
import type { StepInput } from '@docflow/engine';
import type { ExtractOutput } from '../processors/provider.ts';
/** True when `value` looks like an extraction output. */
export declare function isExtractOutput(value: unknown): value is ExtractOutput;
/** An extraction output with the step it came from, in path order. */
export interface SourcedExtractOutput {
    readonly stepName: string;
    readonly output: ExtractOutput;
}
/** Every extraction output on the path, in path order (arrays in arrival order). */
export declare function extractOutputsOf(outputs: StepInput['outputs']): SourcedExtractOutput[];
/** The formula scope of a step: step names to their values, and `metadata`. */
export declare function formulaScope(input: Pick<StepInput<unknown>, 'outputs' | 'metadata'>): Record<string, unknown>;
//# sourceMappingURL=step-outputs.d.ts.map