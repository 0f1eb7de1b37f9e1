import type { StepExecutor } from '@docflow/engine';
import type { ProcessorStepOptions } from './executors/processor-step-options.ts';
import { type ParseStepOptions } from './parse/parse-step.ts';
/** Options of {@link builtinSteps}. */
export interface BuiltinStepsOptions {
    /** PARSE options (limits, OCR pool). */
    readonly parse?: ParseStepOptions;
    /** Processor options (the provider: offline by default, or a model provider). */
    readonly processors?: ProcessorStepOptions;
}
/**
 * Every executor docflow ships, one per work step type: PARSE, EXTRACT, CLASSIFY, SPLIT,
 * MERGE_EXTRACT, CONDITIONAL_EXTRACT, EXTERNAL_DATA_VALIDATION and FILE_CONVERSION, ready for
 * `createEngine({ steps })`. Saved processors named in step configs are resolved through the
 * engine (`context.resolveProcessor`).
 *
 * @example
 * const engine = createEngine({ storage: sqliteStorage({ path: 'docflow.db' }), steps: builtinSteps() });
 */
export declare function builtinSteps(options?: BuiltinStepsOptions): StepExecutor[];
//# sourceMappingURL=builtin-steps.d.ts.map