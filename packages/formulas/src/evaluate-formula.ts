import { programFor } from './compile/program.ts';
import { contextFromOptions, type FormulaOptions } from './formula-options.ts';
import {
  type FormulaEvaluation,
  parseErrorResult,
  runProgram,
  runProgramAsync,
} from './run-program.ts';
import type { FormulaScope } from './values.ts';

/**
 * Evaluates a formula against a scope: `{ ok: true, value }`, or `{ ok: false, failureReason:
 * 'PARSE_ERROR' | 'VALUE_ERROR', error }`. Never throws for a bad formula or bad data (only for
 * bad options). Compiled programs are cached by source text.
 *
 * @example
 * evaluateFormula('extract1.total > 100', { extract1: { total: 120 } }) // { ok: true, value: true }
 */
export function evaluateFormula(
  source: string,
  scope: FormulaScope,
  options?: FormulaOptions,
): FormulaEvaluation {
  const context = contextFromOptions(options);
  const result = programFor(source);
  if (!result.ok) return parseErrorResult(result.diagnostics);
  return runProgram(result.program, scope, context, source);
}

/** Like {@link evaluateFormula}, awaiting asynchronous functions such as LLMJUDGE. */
export async function evaluateFormulaAsync(
  source: string,
  scope: FormulaScope,
  options?: FormulaOptions,
): Promise<FormulaEvaluation> {
  const context = contextFromOptions(options);
  const result = programFor(source);
  if (!result.ok) return parseErrorResult(result.diagnostics);
  return runProgramAsync(result.program, scope, context, source);
}
