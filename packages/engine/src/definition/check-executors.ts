import type { ValidateFunction } from 'ajv';
import { EngineError, EngineErrorCode, type ValidationIssue } from '../errors.ts';
import type { StepExecutor } from '../step-executor.ts';
import { ajvErrorsToIssues } from '../validation/ajv-issues.ts';
import { compileSchema } from '../validation/json-schema.ts';
import { DefinitionIssueCode as Code } from './definition-issue-code.ts';
import { aStep } from './describe-step-type.ts';
import type { StepView } from './step-view.ts';
import { CONFIGURABLE_STEP_TYPES, CONTROL_FLOW_STEP_TYPES } from './workflow-definition.ts';

/** What validation needs to know of an executor. */
export type ExecutorConfigContract = Pick<StepExecutor, 'configSchema' | 'requiresConfig'>;

/** Executors by step type, as a Map or a plain object. */
export type ExecutorLookup =
  | ReadonlyMap<string, ExecutorConfigContract>
  | Readonly<Record<string, ExecutorConfigContract>>;

const CONTROL_FLOW: ReadonlySet<string> = new Set(CONTROL_FLOW_STEP_TYPES);
const CONFIGURABLE: ReadonlySet<string> = new Set(CONFIGURABLE_STEP_TYPES);

/**
 * The compiled validator of an executor's `configSchema`, compiled once per schema object.
 * Throws EngineError INVALID_CONFIGURATION when the schema itself is invalid.
 */
export function configValidator(schema: object, type: string): ValidateFunction {
  try {
    return compileSchema(schema);
  } catch (cause) {
    throw new EngineError(
      EngineErrorCode.INVALID_CONFIGURATION,
      `The configSchema of the ${type} executor is not a valid JSON Schema: ${String(cause)}`,
      { cause },
    );
  }
}

function lookup(executors: ExecutorLookup, type: string): ExecutorConfigContract | undefined {
  const asMap = executors as ReadonlyMap<string, ExecutorConfigContract>;
  if (executors instanceof Map || typeof asMap.get === 'function') return asMap.get(type);
  const record = executors as Readonly<Record<string, ExecutorConfigContract>>;
  return Object.hasOwn(record, type) ? record[type] : undefined;
}

/**
 * The checks that involve executors: a registered executor for every executor-backed step
 * type, a config where one is required (`stage: 'deploy'`), and configs matching the
 * executor's `configSchema`. `skipConfigOf` holds step indices whose config already failed the
 * definition schema (their executor errors would repeat them).
 */
export function checkExecutors(
  steps: readonly StepView[],
  options: {
    readonly executors: ExecutorLookup | undefined;
    readonly requireConfig: boolean;
    readonly skipConfigOf: ReadonlySet<number>;
  },
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const step of steps) {
    const type = step.type;
    if (type === undefined) continue;
    const builtIn = CONTROL_FLOW.has(type);
    const executor =
      builtIn || options.executors === undefined ? undefined : lookup(options.executors, type);
    if (!builtIn && options.executors !== undefined && executor === undefined) {
      issues.push({
        code: Code.NO_EXECUTOR,
        path: `steps[${step.index}].type`,
        message: `no executor is registered for ${type} steps`,
      });
    }
    const needsConfig = CONFIGURABLE.has(type) || executor?.requiresConfig === true;
    if (step.config === undefined) {
      if (options.requireConfig && needsConfig) {
        issues.push({
          code: Code.CONFIG_REQUIRED,
          path: `steps[${step.index}].config`,
          message: `is required: ${aStep(type)} must be configured before it is deployed`,
        });
      }
      continue;
    }
    const schema = executor?.configSchema;
    if (schema === undefined || options.skipConfigOf.has(step.index)) continue;
    const validate = configValidator(schema, type);
    if (validate(step.config)) continue;
    issues.push(
      ...ajvErrorsToIssues(validate.errors, {
        code: Code.CONFIG_INVALID,
        basePath: `steps[${step.index}].config`,
      }),
    );
  }
  return issues;
}
