import { processorSteps } from './executors/processor-steps.js';
import { parseStep } from './parse/parse-step.js';
/**
 * Every executor docflow ships, one per work step type: PARSE, EXTRACT, CLASSIFY, SPLIT,
 * MERGE_EXTRACT, CONDITIONAL_EXTRACT, EXTERNAL_DATA_VALIDATION and FILE_CONVERSION, ready for
 * `createEngine({ steps })`. Saved processors named in step configs are resolved through the
 * engine (`context.resolveProcessor`).
 *
 * @example
 * const engine = createEngine({ storage: sqliteStorage({ path: 'docflow.db' }), steps: builtinSteps() });
 */
export function builtinSteps(options = {}) {
    return [
        parseStep(options.parse),
        ...processorSteps(options.processors),
    ];
}
//# sourceMappingURL=builtin-steps.js.map