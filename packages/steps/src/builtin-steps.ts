import type { StepExecutor } from '@docflow/engine';
import { parseStep } from './parse/parse-step.ts';

/**
 * Every executor docflow ships, one per work step type, ready for `createEngine({ steps })`.
 *
 * @example
 * const engine = createEngine({ storage: sqliteStorage({ path: 'docflow.db' }), steps: builtinSteps() });
 */
export function builtinSteps(): StepExecutor[] {
  return [parseStep() as unknown as StepExecutor];
}
