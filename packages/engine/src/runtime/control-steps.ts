import { evaluateFormula, evaluateRulesAsync } from '@docflow/formulas';
import type { JsonObject, JsonValue } from '@docflow/storage';
import jsonata from 'jsonata';
import { parseOperand } from '../definition/conditional-operand.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import type { RuntimeStep } from '../run/run-graph.ts';
import { toWorkflowRun } from '../run/run-resource.ts';
import type { RunState, StepRunState } from '../run/run-state.ts';
import type { ControlResult, Effects } from '../run/run-transitions.ts';
import type { StepType } from '../step-executor.ts';
import type { RunStore } from './run-store.ts';

/** What evaluating a control step needs. */
export interface ControlStepInput {
  readonly ctx: EngineContext;
  readonly store: RunStore;
  readonly state: RunState;
  readonly stepRun: StepRunState;
  readonly step: RuntimeStep;
  readonly fx: Effects;
  /** Host functions for formulas (LLMJUDGE's judge, user functions). */
  readonly formulaOptions?: Record<string, unknown>;
}

/** How a step's output appears in formulas: `classify1` is the type, `extract1.total` a value. */
function scopeValue(stepType: StepType | undefined, value: JsonValue): JsonValue {
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

/** The formula scope of a path: each passed step by name, plus `metadata`. */
export async function formulaScope(
  store: RunStore,
  state: RunState,
  sr: StepRunState,
): Promise<Record<string, JsonValue>> {
  const scope = await store.loadLineage(state, sr, (source, output) =>
    scopeValue(source.stepType, output),
  );
  scope.metadata = state.metadata;
  return scope;
}

interface Condition {
  readonly id: string;
  readonly type: 'IF' | 'ELSE_IF' | 'ELSE';
  readonly operation?: string;
  readonly leftOperand?: string;
  readonly rightOperand?: string;
}

/** An operand's value: literal text (a number when it reads as one), a formula's value, or a template's text. */
function operandValue(
  source: string | undefined,
  scope: Record<string, JsonValue>,
  options: Record<string, unknown> | undefined,
): { ok: true; value: unknown } | { ok: false; error: string } {
  if (source === undefined) return { ok: true, value: null };
  const parsed = parseOperand(source);
  if (!parsed.ok) return { ok: false, error: parsed.errors.map((e) => e.message).join('; ') };
  const operand = parsed.operand;
  if (operand.kind === 'literal') {
    const n = Number(operand.text);
    return { ok: true, value: operand.text.trim() !== '' && Number.isFinite(n) ? n : operand.text };
  }
  const run = (formula: string) => {
    const r = evaluateFormula(formula, scope, options as never);
    return r.ok
      ? { ok: true as const, value: r.value as unknown }
      : { ok: false as const, error: r.error };
  };
  if (operand.kind === 'formula') return run(operand.source);
  let text = '';
  for (const part of operand.parts) {
    if (part.kind === 'text') text += part.text;
    else {
      const r = run(part.source);
      if (!r.ok) return r;
      text += r.value === null || r.value === undefined ? '' : String(r.value);
    }
  }
  return { ok: true, value: text };
}

function plain(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value) && 'amount' in value) {
    return (value as { amount: unknown }).amount;
  }
  return value;
}

function equal(a: unknown, b: unknown): boolean {
  const x = plain(a);
  const y = plain(b);
  if (typeof x === 'number' && typeof y === 'number') {
    return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
  }
  if (typeof x === 'string' && typeof y === 'string') return x.toLowerCase() === y.toLowerCase();
  return JSON.stringify(x) === JSON.stringify(y);
}

function compare(a: unknown, b: unknown): number | undefined {
  const x = plain(a);
  const y = plain(b);
  const nx =
    typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' ? Number(x) : Number.NaN;
  const ny =
    typeof y === 'number' ? y : typeof y === 'string' && y.trim() !== '' ? Number(y) : Number.NaN;
  if (Number.isFinite(nx) && Number.isFinite(ny)) return nx - ny;
  if (typeof x === 'string' && typeof y === 'string') return x.localeCompare(y);
  return undefined;
}

function contains(a: unknown, b: unknown): boolean {
  const needle = String(plain(b) ?? '').toLowerCase();
  if (Array.isArray(a))
    return a.some((item) => equal(item, b) || String(plain(item)).toLowerCase().includes(needle));
  return String(plain(a) ?? '')
    .toLowerCase()
    .includes(needle);
}

/** Whether one condition holds (docs/decisions/0002-conditional-operands.md). */
function holds(
  c: Condition,
  scope: Record<string, JsonValue>,
  options: Record<string, unknown> | undefined,
): { ok: true; value: boolean } | { ok: false; error: string } {
  if (c.type === 'ELSE') return { ok: true, value: true };
  if (c.operation === 'FORMULA') {
    const r = evaluateFormula(c.leftOperand ?? 'FALSE', scope, options as never);
    return r.ok ? { ok: true, value: r.value === true } : { ok: false, error: r.error };
  }
  const left = operandValue(c.leftOperand, scope, options);
  if (!left.ok) return left;
  const isNull = left.value === null || left.value === undefined || left.value === '';
  switch (c.operation) {
    case 'IS_NULL':
      return { ok: true, value: isNull };
    case 'IS_NOT_NULL':
      return { ok: true, value: !isNull };
    case 'NO_OP':
    case undefined:
      return { ok: true, value: false };
  }
  const right = operandValue(c.rightOperand, scope, options);
  if (!right.ok) return right;
  const order = compare(left.value, right.value);
  switch (c.operation) {
    case 'EQUALS':
      return { ok: true, value: equal(left.value, right.value) };
    case 'NOT_EQUALS':
      return { ok: true, value: !equal(left.value, right.value) };
    case 'GT':
      return { ok: true, value: order !== undefined && order > 0 };
    case 'GTE':
      return { ok: true, value: order !== undefined && order >= 0 };
    case 'LT':
      return { ok: true, value: order !== undefined && order < 0 };
    case 'LTE':
      return { ok: true, value: order !== undefined && order <= 0 };
    case 'CONTAINS':
      return { ok: true, value: contains(left.value, right.value) };
    case 'NOT_CONTAINS':
      return { ok: true, value: !contains(left.value, right.value) };
    default:
      return { ok: false, error: `unknown operation ${String(c.operation)}` };
  }
}

/**
 * Evaluates the control steps that compute something: CONDITIONAL (first condition that holds),
 * RULE_VALIDATION (every rule; routes "pass"/"fail"), WEBHOOK_RESPONSE (the path's result,
 * optionally reshaped by a JSONata `body`, delivered to the workflow's subscribed endpoints).
 */
export async function evaluateControlStep(input: ControlStepInput): Promise<ControlResult> {
  const { store, state, stepRun, step } = input;
  const config = (step.config ?? {}) as JsonObject;
  const scope = await formulaScope(store, state, stepRun);
  switch (step.type) {
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
        if (r.value) return { kind: 'done', output: { id: c.id, type: c.type }, route: c.id };
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
      // Outputs kept in the blob store are loaded, so the body sees what workflowRuns.get shows.
      const stored = new Map<string, JsonValue>();
      for (const sr of state.stepRuns) {
        if (sr.outputRef !== undefined) stored.set(sr.id, await store.loadOutput(sr));
      }
      const run = toWorkflowRun(state, stored) as unknown as JsonObject;
      const pathResult: JsonObject = { run, outputs: scope };
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
      const payload: JsonObject = { workflowRunId: state.id, stepName: stepRun.stepName, body };
      // A step with its own url delivers through the endpoint its deploy created; without one
      // (a draft run), to the workflow's subscribed endpoints.
      let endpointId: string | undefined;
      if (typeof config.url === 'string') {
        const version = await input.ctx.storage.getDocument('workflowVersions', state.definitionId);
        const endpoints = (version?.data.stepEndpoints ?? {}) as Record<string, string>;
        endpointId = endpoints[stepRun.stepName];
      }
      input.fx.engineEvents.push({
        eventType: 'workflow_run.webhook_response',
        payload,
        ...(endpointId ? { endpointId } : {}),
      });
      return { kind: 'done', output: payload };
    }
    default:
      return {
        kind: 'fail',
        reason: 'INTERNAL_ERROR',
        message: `${step.type} is not a control step`,
      };
  }
}
