import type { ValidationIssue } from '../errors.ts';
import { analyzeGraph } from './analyze-graph.ts';
import { checkExecutors, type ExecutorLookup } from './check-executors.ts';
import { checkStepConfigs, type ProcessorResolver } from './check-step-configs.ts';
import { checkDefinitionSchema, DEFINITION_LIMITS } from './definition-schema.ts';
import { viewSteps } from './step-view.ts';

/** Options of {@link validateWorkflowDefinition}. */
export interface ValidateDefinitionOptions {
  /**
   * The registered executors by step type. When given, every executor-backed step type needs
   * one, and configs are checked against its `configSchema`. Control-flow types never need one.
   */
  readonly executors?: ExecutorLookup;
  /** Checks saved processor references (existence, pinning, classification ids). */
  readonly processors?: ProcessorResolver;
  /**
   * `deploy` (default) runs every check. `draft` allows configurable steps without a config,
   * as the service does on create and update.
   */
  readonly stage?: 'draft' | 'deploy';
}

/**
 * Validates a workflow definition `{ steps }` and returns every issue at once (empty when
 * valid), in this order: JSON Schema, graph (names, TRIGGER, targets, cycles, reachability),
 * step configs (routing ids, conditions, rules, formulas, webhook body), executors.
 * Never throws on any input; throws EngineError INVALID_CONFIGURATION only for programming
 * errors of the options: an executor `configSchema` that is not a valid JSON Schema, or a
 * `processors.resolve` that returns a promise.
 *
 * @example
 * const issues = validateWorkflowDefinition({ steps }, { executors: engineExecutors });
 * assertNoIssues(issues, 'workflow definition'); // EngineError VALIDATION_FAILED with details.issues
 */
export function validateWorkflowDefinition(
  definition: unknown,
  options: ValidateDefinitionOptions = {},
): ValidationIssue[] {
  const schemaIssues = checkDefinitionSchema(definition);
  const steps = viewSteps(definition);
  // Past the size limit, graph checks are not worth their cost: the schema issue says enough.
  if (steps === undefined || steps.length > DEFINITION_LIMITS.steps) return schemaIssues;

  const graph = analyzeGraph(steps);
  const configIssues = checkStepConfigs(steps, graph, options.processors);
  const skipConfigOf = new Set<number>();
  for (const issue of schemaIssues) {
    const match = /^steps\[(\d+)\](?:\.(config|type)(?=$|[.[]))?/.exec(issue.path);
    if (match && (match[2] !== undefined || issue.path === `steps[${match[1]}]`)) {
      skipConfigOf.add(Number(match[1]));
    }
  }
  const executorIssues = checkExecutors(steps, {
    executors: options.executors,
    requireConfig: (options.stage ?? 'deploy') === 'deploy',
    skipConfigOf,
  });
  return [...schemaIssues, ...graph.issues, ...configIssues, ...executorIssues];
}
