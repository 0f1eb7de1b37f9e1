import type { StepExecutor } from '@docflow/engine';
import { builtinSteps, processorSteps } from '@docflow/steps';

/**
 * Every executor `@docflow/steps` ships: `builtinSteps()`, completed with the processor
 * executors (EXTRACT, CLASSIFY, SPLIT, …) for any type it does not cover yet.
 */
export function shippedSteps(): StepExecutor[] {
  const steps = builtinSteps();
  const types = new Set(steps.map((s) => s.type));
  return [...steps, ...processorSteps().filter((s) => !types.has(s.type))];
}
