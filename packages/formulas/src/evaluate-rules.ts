import { type ProgramResult, programFor } from './compile/program.ts';
import type { EvalContext } from './eval-context.ts';
import { FormulaError } from './formula-error.ts';
import { FormulaErrorCode } from './formula-error-code.ts';
import { contextFromOptions, type FormulaOptions } from './formula-options.ts';
import {
  type FormulaEvaluation,
  needsAsync,
  newMeter,
  parseErrorResult,
  runProgram,
  runProgramAsync,
} from './run-program.ts';
import type { FormulaScope } from './values.ts';
import { DEFAULT_WORK_BUDGET, type WorkMeter } from './work-meter.ts';

/**
 * Work units after which {@link evaluateRulesAsync} lets the event loop turn before the next
 * rule: about a millisecond and a quarter of the slowest work, so that a rule set holds the
 * thread for at most one rule's budget.
 */
export const YIELD_AFTER_UNITS = DEFAULT_WORK_BUDGET / 4;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A validation rule as RULE_VALIDATION configures it. */
export interface FormulaRule {
  readonly name: string;
  readonly formula: string;
  readonly description?: string;
}

/** Why a rule did not pass (the interface's "Validation results"). */
export type RuleFailureReason = 'RULE_FAILED' | 'PARSE_ERROR' | 'VALUE_ERROR';

/** The result of one rule, as the interface defines it. */
export interface RuleResult {
  readonly name: string;
  /** TRUE only if the formula evaluated to TRUE (for an array: every item TRUE). */
  readonly valid: boolean;
  /** Present for an array-valued formula: each item's result (`item === TRUE`). */
  readonly validArray?: readonly boolean[];
  /** Present exactly when `valid` is false. */
  readonly failureReason?: RuleFailureReason;
  /** Present for PARSE_ERROR and VALUE_ERROR. */
  readonly error?: string;
}

/** The results of a rule set. */
export interface RulesResult {
  readonly rules: readonly RuleResult[];
  readonly allPassed: boolean;
}

/** Builds a rule result from an evaluation. NULL, FALSE and any non-TRUE value fail the rule. */
export function toRuleResult(name: string, evaluation: FormulaEvaluation): RuleResult {
  if (!evaluation.ok) {
    return { name, valid: false, failureReason: evaluation.failureReason, error: evaluation.error };
  }
  const { value } = evaluation;
  if (Array.isArray(value)) {
    const validArray = value.map((item) => item === true);
    const valid = validArray.every(Boolean);
    return valid
      ? { name, valid, validArray }
      : { name, valid, validArray, failureReason: 'RULE_FAILED' };
  }
  return value === true
    ? { name, valid: true }
    : { name, valid: false, failureReason: 'RULE_FAILED' };
}

interface Prepared {
  readonly name: string;
  readonly source: string;
  readonly program: ProgramResult;
}

function prepare(rules: readonly FormulaRule[]): Prepared[] {
  if (!Array.isArray(rules)) {
    throw new FormulaError(
      FormulaErrorCode.InvalidRules,
      'rules must be an array of { name, formula }',
    );
  }
  return rules.map((rule: unknown, index) => {
    const record = (typeof rule === 'object' && rule !== null ? rule : {}) as Partial<FormulaRule>;
    const name = typeof record.name === 'string' ? record.name : `rules[${index}]`;
    if (typeof record.formula !== 'string') {
      return {
        name,
        source: '',
        program: {
          ok: false,
          diagnostics: [
            {
              code: FormulaErrorCode.Empty,
              message: `rules[${index}].formula must be text`,
              span: { start: 0, end: 0 },
            },
          ],
        },
      };
    }
    return { name, source: record.formula, program: programFor(record.formula) };
  });
}

function evaluateOne(
  rule: Prepared,
  scope: FormulaScope,
  context: EvalContext,
  meter?: WorkMeter,
): FormulaEvaluation {
  if (!rule.program.ok) return parseErrorResult(rule.program.diagnostics);
  return runProgram(rule.program.program, scope, context, rule.source, meter);
}

function summarize(results: RuleResult[]): RulesResult {
  return { rules: results, allPassed: results.every((result) => result.valid) };
}

/**
 * Evaluates validation rules against a scope, synchronously, in order. A rule that calls an
 * asynchronous function (LLMJUDGE) fails with VALUE_ERROR here; use {@link evaluateRulesAsync}.
 *
 * @example
 * evaluateRules([{ name: 'total', formula: 'SUM(x.items.amount) = x.total' }], scope)
 * // { rules: [{ name: 'total', valid: true }], allPassed: true }
 */
export function evaluateRules(
  rules: readonly FormulaRule[],
  scope: FormulaScope,
  options?: FormulaOptions,
): RulesResult {
  const context = contextFromOptions(options);
  return summarize(
    prepare(rules).map((rule) => toRuleResult(rule.name, evaluateOne(rule, scope, context))),
  );
}

/**
 * Like {@link evaluateRules}, awaiting asynchronous functions (LLMJUDGE, async host functions).
 * Rules without them are evaluated synchronously, in order, letting the event loop turn between
 * two of them once they spent {@link YIELD_AFTER_UNITS} of work; the others run concurrently.
 * Rejects only if `options.signal` aborts.
 */
export async function evaluateRulesAsync(
  rules: readonly FormulaRule[],
  scope: FormulaScope,
  options?: FormulaOptions,
): Promise<RulesResult> {
  const context = contextFromOptions(options);
  const results: (RuleResult | Promise<RuleResult>)[] = [];
  let sinceTurn = 0;
  for (const rule of prepare(rules)) {
    if (rule.program.ok && needsAsync(rule.program.program, context)) {
      const result = runProgramAsync(rule.program.program, scope, context, rule.source).then(
        (evaluation) => toRuleResult(rule.name, evaluation),
      );
      // Awaited by Promise.all below; an abort while this loop waits for a turn is not unhandled.
      result.catch(() => {});
      results.push(result);
      continue;
    }
    if (sinceTurn >= YIELD_AFTER_UNITS) {
      await nextTurn();
      sinceTurn = 0;
    }
    const meter = newMeter(context);
    results.push(toRuleResult(rule.name, evaluateOne(rule, scope, context, meter)));
    sinceTurn += meter.spent;
  }
  return summarize(await Promise.all(results));
}
