import { evaluateRulesAsync } from '@docflow/formulas';
import type { JsonObject, JsonValue } from '@docflow/storage';
import jsonata from 'jsonata';
import type { StepType } from '../../step-executor.ts';
import type { ControlResult } from '../transition-context.ts';
import { type Condition, holds } from './conditions.ts';

/** What evaluating a CONDITIONAL, RULE_VALIDATION or WEBHOOK_RESPONSE step reads, loaded before. */
export interface ControlInputs {
  readonly stepType: StepType;
  readonly stepName: string;
  readonly workflowRunId: string;
  readonly config: JsonObject;
  /** The path's formula scope: each passed step by name (see {@link scopeValue}), and `metadata`. */
  readonly scope: Record<string, JsonValue>;
  /** WEBHOOK_RESPONSE: the run as `workflowRuns.get` shows it. */
  readonly run?: JsonObject;
  /** WEBHOOK_RESPONSE with its own url: the endpoint its deploy created. */
  readonly endpointId?: string | undefined;
  /** Host functions for formulas (LLMJUDGE's judge, user functions). */
  readonly formulaOptions?: Record<string, unknown>;
}

/** How a step's output appears in formulas: `classify1` is the type, `extract1.total` a value. */
export function scopeValue(stepType: StepType | undefined, value: JsonValue): JsonValue {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const output = value as JsonObject;
  switch (stepType) {
    case 'CLASSIFY':
      return (output.type as JsonValue) ?? null;
    case 'EXTRACT':
    case 'MERGE_EXTRACT':
    case 'CONDITIONAL_EXTRACT':
      return 'value' in output ? (output.value as JsonValue) : output;
    case 'EXTERNAL_DATA_VALIDATION':
      return 'data' in output ? (output.data as JsonValue) : output;
    default:
      return output;
  }
}

/**
 * Evaluates the control steps that compute something: CONDITIONAL (first condition that holds),
 * RULE_VALIDATION (every rule; routes "pass"/"fail"), WEBHOOK_RESPONSE (the path's result,
 * optionally reshaped by a JSONata `body`, delivered to the workflow's subscribed endpoints).
 */
export async function evaluateControl(input: ControlInputs): Promise<ControlResult> {
  const { config, scope } = input;
  switch (input.stepType) {
    case 'CONDITIONAL': {
      const conditions = (config.conditions ?? []) as unknown as Condition[];
      for (const c of conditions) {
        const r = holds(c, scope, input.formulaOptions);
        if (!r.ok) {
          return {
            kind: 'fail',
            reason: 'VALUE_ERROR',
            message: `condition "${c.id}": ${r.error}`,
          };
        }
        if (!r.value) continue;
        // The interface's router result: the branch that matched, or null when the otherwise (ELSE)
        // route was taken.
        return {
          kind: 'done',
          output: c.type === 'ELSE' ? null : { id: c.id, type: c.type },
          route: c.id,
        };
      }
      return { kind: 'done', output: null, route: null };
    }
    case 'RULE_VALIDATION': {
      const rules = (config.rules ?? []) as unknown as { name: string; formula: string }[];
      const result = await evaluateRulesAsync(rules, scope, input.formulaOptions as never);
      return {
        kind: 'done',
        output: result as unknown as JsonValue,
        route: result.allPassed ? 'pass' : 'fail',
      };
    }
    case 'WEBHOOK_RESPONSE': {
      const pathResult: JsonObject = { run: input.run ?? {}, outputs: scope };
      let body: JsonValue = pathResult;
      if (typeof config.body === 'string') {
        try {
          body = ((await jsonata(config.body).evaluate(pathResult)) ?? null) as JsonValue;
        } catch (error) {
          return {
            kind: 'fail',
            reason: 'INVALID_CONFIGURATION',
            message: `body expression failed: ${error instanceof Error ? error.message : String(error)}`,
          };
        }
      }
      const payload: JsonObject = {
        workflowRunId: input.workflowRunId,
        stepName: input.stepName,
        body,
      };
      // A step with its own url delivers through the endpoint its deploy created; without one
      // (a draft run), to the workflow's subscribed endpoints.
      return {
        kind: 'done',
        output: payload,
        event: {
          eventType: 'workflow_run.webhook_response',
          payload,
          ...(input.endpointId ? { endpointId: input.endpointId } : {}),
        },
      };
    }
    default:
      return {
        kind: 'fail',
        reason: 'INTERNAL_ERROR',
        message: `${String(input.stepType)} is not a control step that evaluates`,
      };
  }
}
